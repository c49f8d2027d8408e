#include "ui/explorer/TrialsPanel.h"

#include "ui/common/BackgroundJob.h"
#include "ui/common/BackgroundThreads.h"
#include "ui/common/BandChartView.h"

#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <set>

TrialsPanel::TrialsPanel(std::function<fa::ExplorerConfig()> currentConfig, QWidget* parent)
    : QWidget(parent), m_currentConfig(std::move(currentConfig)), m_trials(new QSpinBox),
      m_start(new QPushButton("Run trials")), m_cancel(new QPushButton("Cancel")),
      m_progress(new QProgressBar), m_status(new QLabel),
      m_cov(new BandChartView("Relative covariance distance, mean ± SE over trials",
                              "relative distance",
                              [](const fa::BandPoint& p) { return p.relCovDist; })),
      m_w2(new BandChartView("2-Wasserstein distance / D, mean ± SE over trials", "W₂ / D",
                             [](const fa::BandPoint& p) { return p.w2OverDim; })),
      m_job(new BackgroundJob(this)) {
    m_trials->setRange(2, 1000);
    m_trials->setValue(10);
    m_trials->setToolTip(
        "Independent trials: each draws its own true model, samples and initial F\n"
        "(trial seeds as in faexplorer-cli fa-sweep --seed; trial 1 is the live run).");
    m_start->setToolTip(
        "Repeat the current parameters over N trials in the background (Ctrl+T).\n"
        "Batch FA is refitted at 10, 20, 50, 100, … samples. Band: mean ± standard error.");
    m_cancel->setToolTip("Stop the trials; finished trials stay on the chart.");
    m_cancel->setEnabled(false);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setFormat("idle");
    m_status->setWordWrap(true);
    connect(m_start, &QPushButton::clicked, this, &TrialsPanel::start);
    connect(m_cancel, &QPushButton::clicked, this, &TrialsPanel::cancel);
    connect(m_job, &BackgroundJob::finished, this, &TrialsPanel::onJobFinished);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel("trials"));
    bar->addWidget(m_trials);
    bar->addWidget(m_start);
    bar->addWidget(m_cancel);
    bar->addWidget(m_progress, 1);
    auto* charts = new QHBoxLayout;
    charts->addWidget(m_cov);
    charts->addWidget(m_w2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_status);
    layout->addLayout(charts, 1);
    m_status->setText("Runs the window's parameters N times and shades mean ± standard error, as "
                      "in the thesis figures.");
}

TrialsPanel::~TrialsPanel() {
    delete m_job; // cancels and waits for the current piece (a few milliseconds)
    m_job = nullptr;
}

bool TrialsPanel::running() const {
    return m_job && m_job->running();
}

void TrialsPanel::start() {
    if (running())
        return;
    m_runningConfig = m_currentConfig();
    m_trialsRequested = m_trials->value();
    fa::FaSweepConfig sweep = fa::trialsSweep(m_runningConfig, m_trialsRequested);
    sweep.threads = backgroundThreads(); // trials side by side; the rows do not depend on it
    try {
        fa::validate(sweep);
    } catch (const std::exception& e) {
        m_status->setText("⚠ Cannot run trials: " + QString::fromUtf8(e.what()));
        emit message("Cannot run trials: " + QString::fromUtf8(e.what()));
        return;
    }
    m_start->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setValue(0);
    m_progress->setFormat("%p %");
    m_status->setText(QString("Running %1 trials of %2 samples…")
                          .arg(m_trialsRequested)
                          .arg(m_runningConfig.totalSamples));
    m_job->start(
        [this, sweep](const std::atomic<bool>& cancel) {
            QElapsedTimer throttle;
            throttle.start();
            // Trials run side by side: the progress is the samples done over all of them (the
            // calls come one at a time).
            std::vector<long> samples(static_cast<std::size_t>(sweep.trials), 0);
            auto progress = [&](const fa::FaSweepProgress& p) {
                samples[static_cast<std::size_t>(p.trial)] = p.samples;
                if (throttle.elapsed() < 100)
                    return; // ten progress updates a second are plenty
                throttle.restart();
                long sum = 0;
                int finished = 0;
                for (const long s : samples) {
                    sum += s;
                    finished += s == p.totalSamples;
                }
                const double done = static_cast<double>(sum) / p.totalSamples / p.trials;
                m_job->deliver([this, done, finished, trials = p.trials] {
                    m_progress->setValue(static_cast<int>(done * 1000));
                    m_progress->setFormat(
                        QString("%1 of %2 trials done — %p %").arg(finished).arg(trials));
                });
            };
            // Rows of whole trials are kept when cancelled; an error throws to the job.
            std::vector<fa::FaSweepRow> rows = fa::runFaSweep(sweep, progress, &cancel);
            const std::lock_guard lock(m_resultMutex);
            m_result = std::move(rows);
        },
        BackgroundJob::Priority::Low); // the live run and the window come first
}

void TrialsPanel::cancel() {
    if (running()) {
        m_job->cancel();
        m_status->setText("Cancelling…");
    }
}

void TrialsPanel::onJobFinished(bool cancelled, const QString& error) {
    {
        const std::lock_guard lock(m_resultMutex);
        m_rows = std::move(m_result);
        m_result.clear();
    }
    // Only whole trials count: a cancelled sweep's last trial is incomplete.
    std::set<int> trials;
    for (const auto& r : m_rows)
        if (r.samples == m_runningConfig.totalSamples)
            trials.insert(r.trial);
    std::erase_if(m_rows, [&](const fa::FaSweepRow& r) { return !trials.contains(r.trial); });
    m_rowsConfig = m_runningConfig;
    const int done = static_cast<int>(trials.size());
    m_start->setEnabled(true);
    m_cancel->setEnabled(false);
    m_progress->setValue(cancelled ? m_progress->value() : 1000);
    m_progress->setFormat(cancelled ? "cancelled" : "done");
    const auto bands = fa::trialBands(m_rows);
    m_cov->showBands(bands, m_rowsConfig.totalSamples);
    m_w2->showBands(bands, m_rowsConfig.totalSamples);
    if (!error.isEmpty())
        m_status->setText("⚠ Trials failed: " + error);
    else
        m_status->setText(
            QString("%1 of %2 trials complete%3. D = %4, K = %5, spectrum [%6, %7], seed %8.")
                .arg(done)
                .arg(m_trialsRequested)
                .arg(cancelled ? " (cancelled)" : "")
                .arg(m_rowsConfig.generator.dim)
                .arg(m_rowsConfig.fitLatent)
                .arg(m_rowsConfig.generator.spectrumLo)
                .arg(m_rowsConfig.generator.spectrumHi)
                .arg(m_rowsConfig.seed));
    emit finished(done, cancelled);
}
