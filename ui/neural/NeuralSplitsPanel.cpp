#include "ui/neural/NeuralSplitsPanel.h"

#include "core/io/RegressionCsv.h"
#include "ui/common/BackgroundJob.h"
#include "ui/common/BackgroundThreads.h"

#include "core/io/AtomicFile.h"
#include "core/math/Summary.h"
#include "core/neural/NeuralCsv.h"
#include "core/neural/PublishedNeural.h"
#include "ui/common/FormWidgets.h"

#include <QDir>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {
QString cell(const fa::MeanStdErr& m) {
    return QString("%1 ± %2").arg(m.mean, 0, 'f', 2).arg(m.stdErr, 0, 'f', 2);
}
QString cell(double mean, double se) {
    return QString("%1 ± %2").arg(mean, 0, 'f', 2).arg(se, 0, 'f', 2);
}
} // namespace

NeuralSplitsPanel::NeuralSplitsPanel(QWidget* parent)
    : QWidget(parent), m_job(new BackgroundJob(this)) {
    m_table = new QTableWidget(0, 8);
    m_table->setHorizontalHeaderLabels({"data set", "network", "method", "splits", "test NMLL",
                                        "test RMSE", "report NMLL", "report RMSE"});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setToolTip(
        "Mean ± standard error over the finished splits; the report's figures (20 splits) beside.");
    m_progress = new QProgressBar;
    m_label = new QLabel(
        "Run the report's protocol: tune by random search with k-fold validation, refit, "
        "score the test part; one row per method, filled as splits finish.");
    m_label->setWordWrap(true);
    m_run = new QPushButton("Run splits");
    m_run->setToolTip("Runs in the background on every core (faexplorer --threads N to change); "
                      "the live view stays usable");
    m_cancel = new QPushButton("Cancel");
    m_cancel->setEnabled(false);

    auto* settings = new QFormLayout;
    settings->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint); // not 1200 px wide boxes
    m_fields.addRows(settings, {"splits", "search-trials", "folds"});
    settings->addRow("epochs per fit", m_fields.field("epochs"));
    m_fields.field("epochs")->setToolTip("Epochs per fit in the splits table (the report: 120; "
                                         "Boston 200).");
    setSettings(5, 10, 3, 120);
    auto* ranges = new QFormLayout; // beside the protocol's fields: the table keeps its height
    ranges->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint);
    const fa::SearchRanges defaults;
    for (std::size_t i = 0; i < m_ranges.size(); ++i) {
        const fa::SearchRangeParam& p = fa::searchRangeParams()[i];
        m_ranges[i] =
            new QLineEdit(QString::fromStdString(fa::rangeText(fa::rangeAt(defaults, i))));
        m_ranges[i]->setObjectName(p.flag);
        m_ranges[i]->setToolTip(QString("%1 LO,HI (--%2).").arg(p.help, p.flag));
        if (p.optional)
            m_ranges[i]->setPlaceholderText("b = √(2α)");
        ranges->addRow(p.label, m_ranges[i]);
    }
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_progress, 1);
    auto* layout = new QVBoxLayout(this);
    auto* forms = new QHBoxLayout;
    forms->addLayout(settings);
    forms->addSpacing(24);
    forms->addLayout(ranges);
    forms->addStretch(1);
    layout->addLayout(forms);
    layout->addLayout(buttons);
    layout->addWidget(m_label);
    layout->addWidget(m_table, 1);

    connect(m_run, &QPushButton::clicked, this, &NeuralSplitsPanel::runRequested);
    connect(m_cancel, &QPushButton::clicked, this, &NeuralSplitsPanel::cancel);
    connect(m_job, &BackgroundJob::finished, this, [this](bool cancelled, const QString& error) {
        m_run->setEnabled(true);
        m_cancel->setEnabled(false);
        m_label->setText(!error.isEmpty() ? "⚠ " + error
                         : cancelled
                             ? QString("Cancelled; %1 finished row(s) kept.").arg(m_rows.size())
                             : QString("Done: %1 row(s).").arg(m_rows.size()));
        if (!error.isEmpty())
            m_lastError = error;
        emit finished();
    });
}

void NeuralSplitsPanel::setSettings(int splits, int searchTrials, int folds, int epochs) {
    fa::NeuralConfig c;
    c.splits = splits;
    c.searchTrials = searchTrials;
    c.folds = folds;
    c.fit.epochs = epochs;
    m_fields.show(c);
}

bool NeuralSplitsPanel::readRanges(fa::SearchRanges& ranges) {
    for (std::size_t i = 0; i < m_ranges.size(); ++i) {
        const fa::SearchRangeParam& p = fa::searchRangeParams()[i];
        const QString text = m_ranges[i]->text().trimmed();
        const QStringList parts = text.split(',');
        bool loOk = false, hiOk = false;
        const double lo = parts.size() == 2 ? parts[0].trimmed().toDouble(&loOk) : 0.0;
        const double hi = parts.size() == 2 ? parts[1].trimmed().toDouble(&hiOk) : 0.0;
        try {
            if (text.isEmpty() && p.optional)
                fa::unsetRangeAt(ranges, i, p.label);
            else
                fa::setRangeAt(ranges, i, loOk && hiOk ? lo : 0.0, hi, p.label);
        } catch (const std::invalid_argument& e) {
            m_lastError = QString::fromStdString(e.what()) + ", not '" + text + "'";
            m_ranges[i]->setFocus();
            return false;
        }
    }
    return true;
}

void NeuralSplitsPanel::run(const fa::NeuralLiveConfig& live) {
    if (live.methods.empty() && live.iterateMethods.empty()) {
        m_lastError = "choose at least one method";
        emit message("⚠ " + m_lastError, 8000);
        return;
    }
    fa::NeuralConfig c;
    c.dataset = live.dataset;
    c.target = live.target;
    c.loader = live.loader ? live.loader : fa::io::datasetLoader();
    c.methods = live.methods;
    c.iterateMethods = live.iterateMethods;
    c.iterate = live.iterate;
    c.fit = live.fit;
    m_fields.read(c); // splits, search trials, folds, epochs
    if (!readRanges(c.ranges)) {
        emit message("⚠ " + m_lastError, 8000);
        return;
    }
    c.seed = live.seed;
    c.threads = backgroundThreads();
    if (!c.iterateMethods.empty() && c.iterate.swaStart >= c.fit.epochs) {
        m_lastError = QString("the SWA start (%1) must be below the table's epochs (%2)")
                          .arg(c.iterate.swaStart)
                          .arg(c.fit.epochs);
        emit message("⚠ " + m_lastError, 8000);
        return;
    }
    m_config = c;
    m_rows.clear();
    refresh();
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    const int total = c.splits * static_cast<int>(fa::methodNames(c).size());
    m_progress->setRange(0, total);
    m_progress->setValue(0);
    // The protocol runs on the job's thread (and c.threads more for the search); rows and
    // progress come back to this thread one at a time.
    m_job->start([this, c, total](const std::atomic<bool>& cancel) {
        int done = 0;
        fa::runNeural(
            c,
            [&](const fa::NeuralRow& row) {
                ++done;
                m_job->deliver([this, row, done, total] {
                    m_rows.push_back(row);
                    refresh();
                    m_progress->setRange(0, total);
                    m_progress->setValue(done);
                    emit rowAdded(static_cast<int>(m_rows.size()));
                });
            },
            [&](const fa::NeuralProgress& p) {
                const QString stage =
                    QString("split %1/%2, %3: %4")
                        .arg(p.split + 1)
                        .arg(p.splits)
                        .arg(QString::fromStdString(p.method), QString::fromStdString(p.stage));
                m_job->deliver([this, stage] { m_label->setText(stage); });
            },
            &cancel);
    });
}

void NeuralSplitsPanel::cancel() {
    m_job->cancel();
}

void NeuralSplitsPanel::refresh() {
    m_table->setRowCount(0);
    for (const std::string& name : fa::methodNames(m_config)) {
        std::vector<double> nmll, rmse;
        std::string dataset, hidden;
        for (const auto& r : m_rows)
            if (r.method == name)
                nmll.push_back(r.nmll), rmse.push_back(r.rmse), dataset = r.dataset,
                                                                hidden = r.hidden;
        if (nmll.empty())
            continue;
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        const auto published = fa::publishedNeural(dataset, hidden, name);
        const QStringList cells{QString::fromStdString(dataset),
                                QString::fromStdString(hidden),
                                QString::fromStdString(name),
                                QString::number(nmll.size()),
                                cell(fa::meanStdErr(nmll)),
                                cell(fa::meanStdErr(rmse)),
                                published ? cell(published->nmll, published->nmllSe) : "–",
                                published ? cell(published->rmse, published->rmseSe) : "–"};
        for (int col = 0; col < cells.size(); ++col)
            m_table->setItem(row, col, new QTableWidgetItem(cells[col]));
    }
}

bool NeuralSplitsPanel::exportRows(const QString& path) {
    if (m_rows.empty()) {
        m_lastError = "no splits have finished yet (Run splits)";
        emit message("⚠ Cannot export: " + m_lastError, 8000);
        return false;
    }
    try {
        fa::io::AtomicFile file(path.toStdString(), fa::io::FifoReader::Refuse);
        fa::io::writeNeuralCsv(file.stream(), m_rows);
        file.commit();
    } catch (const std::exception& e) {
        m_lastError = QString::fromUtf8(e.what());
        emit message("⚠ Cannot export: " + m_lastError, 8000);
        return false;
    }
    emit message("Exported the split rows to " + QDir::toNativeSeparators(path), 5000);
    return true;
}
