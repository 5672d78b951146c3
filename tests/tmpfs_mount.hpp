// A real small file system for tests of a full disk: a tmpfs of `size`
// ("16k", "256k") mounted on `path` for the object's lifetime. We are root in
// CI; why() says why it could not be mounted elsewhere.
#pragma once

#include <QDir>
#include <QString>

#include <cerrno>
#include <cstring>
#include <string>
#include <sys/mount.h>

namespace sb::test {

class TmpfsMount {
public:
    TmpfsMount(const QString& path, const char* size) : path_(path.toStdString())
    {
        QDir().mkpath(path);
        if (::mount("tmpfs", path_.c_str(), "tmpfs", 0, (std::string("size=") + size + ",mode=0755").c_str()) == 0) mounted_ = true;
        else why_ = QStringLiteral("cannot mount a tmpfs on %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
    }
    ~TmpfsMount()
    {
        if (mounted_) ::umount2(path_.c_str(), MNT_DETACH); // a process may still hold a file there
    }
    TmpfsMount(const TmpfsMount&) = delete;
    TmpfsMount& operator=(const TmpfsMount&) = delete;
    bool ok() const { return mounted_; }
    const QString& why() const { return why_; }

private:
    std::string path_;
    bool mounted_ = false;
    QString why_;
};

} // namespace sb::test
