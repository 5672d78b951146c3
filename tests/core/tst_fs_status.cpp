// The core's error value and value-or-error (core/util/status.hpp: Status,
// Result<T>) and the checkpoint folder
// steps that return it (core/checkpoint/fs_util: makeDirs, removeTree,
// listDir on std::filesystem): ok stays ok, a failure carries a message that
// names the path, and a missing path is ok to remove.
#include "checkpoint/fs_util.hpp"
#include "util/status.hpp"

#include <QtTest/QtTest>

#include <QTemporaryDir>

#include <algorithm>
#include <fstream>

using namespace sb;

class TestFsStatus : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void statusValues()
    {
        const Status ok;
        QVERIFY(ok.ok());
        QVERIFY(ok.message().empty());
        QVERIFY(ok.prefixed("where").ok());
        const Status bad = Status::error("disk full");
        QVERIFY(!bad.ok());
        QVERIFY(!bad);
        QCOMPARE(QString::fromStdString(bad.prefixed("checkpoint").message()), QStringLiteral("checkpoint: disk full"));
        const Status emptyMessage = Status::error("");
        QVERIFY(!emptyMessage.ok()); // an error without words is still an error
    }

    void resultValues()
    {
        Result<int> seven(7);
        QVERIFY(seven.ok());
        QVERIFY(bool(seven));
        QCOMPARE(seven.value(), 7);
        QVERIFY(seven.status().ok());
        QVERIFY(seven.error().empty());
        const Result<std::string> bad(Status::error("no checkpoint"));
        QVERIFY(!bad.ok());
        QVERIFY(!bad);
        QCOMPARE(QString::fromStdString(bad.error()), QStringLiteral("no checkpoint"));
        QCOMPARE(QString::fromStdString(bad.status().prefixed("resume").message()), QStringLiteral("resume: no checkpoint"));
        Result<std::string> moved(std::string("folder"));
        const std::string taken = std::move(moved).value();
        QCOMPARE(QString::fromStdString(taken), QStringLiteral("folder"));
    }

    void makeListAndRemoveATree()
    {
        QTemporaryDir tmp;
        const std::string root = tmp.path().toStdString() + "/a/b/c";
        QVERIFY(ckpt::makeDirs(root).ok());
        QVERIFY(ckpt::isDir(root));
        QVERIFY(ckpt::makeDirs(root).ok()); // exists already: ok
        std::ofstream(root + "/f.bin") << "x";
        QVERIFY(ckpt::makeDirs(root + "/d").ok());
        auto names = ckpt::listDir(root);
        std::sort(names.begin(), names.end());
        QCOMPARE(names, (std::vector<std::string>{"d", "f.bin"}));
        QVERIFY(ckpt::listDir(root + "/missing").empty());
        QVERIFY(ckpt::removeTree(tmp.path().toStdString() + "/a").ok());
        QVERIFY(!ckpt::exists(tmp.path().toStdString() + "/a"));
        QVERIFY(ckpt::removeTree(tmp.path().toStdString() + "/a").ok()); // missing: ok
    }

    void aFileInThePathIsAnError()
    {
        QTemporaryDir tmp;
        const std::string file = tmp.path().toStdString() + "/plain";
        std::ofstream(file) << "x";
        const Status st = ckpt::makeDirs(file + "/sub");
        QVERIFY(!st.ok());
        QVERIFY2(st.message().find("cannot create folder " + file + "/sub: ") == 0, st.message().c_str());
    }
};

QTEST_MAIN(TestFsStatus)
#include "tst_fs_status.moc"
