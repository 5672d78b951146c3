// Where step metrics go, as torchtitan's metric loggers: log a record,
// close at the end. The run store is one sink; a CLI progress line, a CSV
// file or a plot are others.
#pragma once

#include "events/core_event.hpp"

namespace sb::launch {

class MetricsSink {
public:
    virtual ~MetricsSink() = default;
    virtual void log(const protocol::StepMetrics& step) = 0;
    virtual void close() = 0;
};

} // namespace sb::launch
