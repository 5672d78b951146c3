#include "jobs/work_pool.hpp"

#include <QThreadPool>

namespace sb::app {

QThreadPool* workPool()
{
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool; // lives as long as the process: no thread is joined at exit
        p->setMaxThreadCount(4);
        p->setExpiryTimeout(30000);
        return p;
    }();
    return pool;
}

} // namespace sb::app
