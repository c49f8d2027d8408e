#include "ui/neural/NeuralWorker.h"

#include "core/io/RegressionCsv.h"

NeuralWorker::NeuralWorker() {
    qRegisterMetaType<NeuralSnapshotPtr>();
    qRegisterMetaType<fa::NeuralLiveConfig>();
    qRegisterMetaType<fa::NeuralConfig>();
    qRegisterMetaType<fa::NeuralRow>();
    setSpeed(20.0);
}

NeuralWorker::~NeuralWorker() {
    m_cancel = true;
    if (m_splits.joinable())
        m_splits.join();
}

void NeuralWorker::configure(fa::NeuralLiveConfig config) {
    stopForNewRun();
    if (!config.loader)
        config.loader = fa::io::datasetLoader();
    try {
        m_live = std::make_unique<fa::NeuralLive>(config);
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what())); // the previous run, if any, stays
        return;
    }
    publish(true);
}

void NeuralWorker::emitSnapshot() {
    emit snapshotReady(std::make_shared<const fa::NeuralLiveSnapshot>(m_live->snapshot()));
}

void NeuralWorker::runSplits(fa::NeuralConfig config) {
    cancelSplits();
    if (!config.loader)
        config.loader = fa::io::datasetLoader();
    m_cancel = false;
    // The protocol runs on its own thread (it uses config.threads more for the search); rows
    // come back through queued signals.
    m_splits = std::thread([this, config] {
        QString error;
        int done = 0;
        const int total = config.splits * static_cast<int>(config.methods.size());
        try {
            fa::runNeural(
                config,
                [&](const fa::NeuralRow& row) {
                    emit splitRow(row);
                    emit splitProgress(++done, total, "");
                },
                [&](const fa::NeuralProgress& p) {
                    emit splitProgress(done, total,
                                       QString("split %1/%2, %3: %4")
                                           .arg(p.split + 1)
                                           .arg(p.splits)
                                           .arg(QString::fromStdString(p.method),
                                                QString::fromStdString(p.stage)));
                },
                &m_cancel);
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        emit splitsFinished(m_cancel.load(), error);
    });
}

void NeuralWorker::cancelSplits() {
    m_cancel = true;
    if (m_splits.joinable())
        m_splits.join();
}
