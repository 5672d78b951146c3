#include "line_splitter.hpp"

namespace sb::protocol {

void LineSplitter::feed(QByteArrayView data, const Sink& sink)
{
    while (!data.isEmpty()) {
        const qsizetype nl = data.indexOf('\n');
        const QByteArrayView chunk = nl < 0 ? data : data.first(nl);
        if (!discarding_) {
            const qsizetype room = maxLine_ - pending_.size();
            if (chunk.size() > room) {
                pending_.append(chunk.first(room));
                sink(std::exchange(pending_, {}), true);
                discarding_ = true;
            } else {
                pending_.append(chunk);
            }
        }
        if (nl < 0) break;
        if (discarding_) discarding_ = false;
        else {
            if (pending_.endsWith('\r')) pending_.chop(1);
            sink(std::exchange(pending_, {}), false);
        }
        data = data.sliced(nl + 1);
    }
}

void LineSplitter::finish(const Sink& sink)
{
    if (!pending_.isEmpty()) sink(std::exchange(pending_, {}), false);
    discarding_ = false;
}

} // namespace sb::protocol
