// The core's error value: ok, or an error message. [[nodiscard]], so a call
// whose result is ignored is a compiler warning (-Wall, cmake/
// ProjectOptions.cmake), where an "empty std::string means OK" return was
// silently dropped. Header-only; every core library reaches it through sb_json's
// include folder (core/).
#pragma once

#include <cassert>
#include <string>
#include <utility>

namespace sb {

class [[nodiscard]] Status {
public:
    Status() = default; // ok
    static Status error(std::string message) { return Status(std::move(message)); }

    bool ok() const { return !failed_; }
    explicit operator bool() const { return ok(); }
    const std::string& message() const { return message_; } // empty when ok

    // The message with `context` in front ("context: message"); ok stays ok.
    Status prefixed(const std::string& context) const { return ok() ? Status() : error(context + ": " + message_); }

private:
    explicit Status(std::string message) : message_(std::move(message)), failed_(true) {}
    std::string message_;
    bool failed_ = false;
};

// A value, or the error Status that stands in its place. [[nodiscard]] like
// Status; value() on an error is a programming error (asserted).
template <typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : value_(std::move(value)) {} // NOLINT: a value converts
    Result(Status error) : status_(std::move(error)) { assert(!status_.ok()); }

    bool ok() const { return status_.ok(); }
    explicit operator bool() const { return ok(); }
    const Status& status() const { return status_; }
    const std::string& error() const { return status_.message(); } // empty when ok

    const T& value() const& { assert(ok()); return value_; }
    T& value() & { assert(ok()); return value_; }
    T&& value() && { assert(ok()); return std::move(value_); }
    // The value, or `fallback` when this is an error (std::expected's value_or).
    T valueOr(T fallback) && { return ok() ? std::move(value_) : std::move(fallback); }

private:
    T value_{};
    Status status_;
};

} // namespace sb
