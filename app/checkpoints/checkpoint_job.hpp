// Verifying a checkpoint, or exporting it as one .safetensors file or as a
// Hugging Face folder (fp32, transformers' default shard size), off the GUI
// thread: progress as it goes, and a cancel that stops at the next shard.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace sb::app {

class CheckpointJob : public QObject {
    Q_OBJECT
public:
    enum Kind { Verify, Export, ExportHf };
    struct Result {
        Kind kind = Verify;
        QString checkpoint;
        QString output;     // Export: the file written; ExportHf: the folder
        QString error;      // the checkpoint library's sentence; "" on success
        bool cancelled = false;
    };

    explicit CheckpointJob(QObject* parent = nullptr);
    ~CheckpointJob() override; // cancels and waits

    // False while another job runs.
    bool start(Kind kind, const QString& checkpoint, const QString& output = {});
    void cancel();
    bool isRunning() const { return watcher_.isRunning(); }
    Kind kind() const { return kind_; }
    const Result& result() const { return result_; }
    void waitForFinished();

Q_SIGNALS:
    void progressChanged(double fraction);
    void finished(const sb::app::CheckpointJob::Result& result);

private:
    QFutureWatcher<Result> watcher_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    Kind kind_ = Verify;
    Result result_;
};

} // namespace sb::app

Q_DECLARE_METATYPE(sb::app::CheckpointJob::Result)
