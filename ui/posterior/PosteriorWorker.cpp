#include "ui/posterior/PosteriorWorker.h"

#include "core/io/RegressionCsv.h"

#include <stdexcept>

PosteriorWorker::PosteriorWorker() {
    qRegisterMetaType<PosteriorSnapshotPtr>();
    qRegisterMetaType<fa::PosteriorLiveConfig>();
    setSpeed(250.0);
}

fa::PosteriorLiveConfig PosteriorWorker::currentConfig() const {
    return m_live ? m_live->config() : fa::PosteriorLiveConfig{};
}

std::vector<fa::PosteriorRow> PosteriorWorker::currentRows() const {
    return m_live ? m_live->rows() : std::vector<fa::PosteriorRow>{};
}

void PosteriorWorker::configure(fa::PosteriorLiveConfig config) {
    stopForNewRun();
    if (!config.setup.loader)
        config.setup.loader = fa::io::datasetLoader();
    try {
        auto live = std::make_unique<fa::PosteriorLive>(config);
        const int d = static_cast<int>(live->problem().dim());
        if (m_i >= d || m_j >= d || m_i == m_j)
            m_i = 0, m_j = 1;
        m_live = std::move(live);
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what()));
        return;
    }
    publish(true);
}

void PosteriorWorker::setSgdLearningRate(double eta) {
    try {
        if (m_live)
            m_live->setSgdLearningRate(eta);
    } catch (const std::invalid_argument& e) {
        emit refused(QString::fromStdString(e.what()));
    }
    publish(true);
}

void PosteriorWorker::setLambda(double lambda) {
    try {
        if (m_live)
            m_live->setLambda(lambda);
    } catch (const std::invalid_argument& e) {
        emit refused(QString::fromStdString(e.what()));
    }
    publish(true);
}

void PosteriorWorker::setCoordinates(int i, int j) {
    if (m_live) {
        const int d = static_cast<int>(m_live->problem().dim());
        if (i < 0 || j < 0 || i >= d || j >= d || i == j) {
            emit refused(QString("choose two different parameters between 1 and %1").arg(d));
            return;
        }
    }
    m_i = i;
    m_j = j;
    publish(true);
}

void PosteriorWorker::emitSnapshot() {
    emit snapshotReady(
        std::make_shared<const fa::PosteriorLiveSnapshot>(m_live->snapshot(m_i, m_j)));
}
