#include "ui/neural/NeuralPage.h"

#include "core/neural/NeuralCsv.h"
#include "ui/common/AxisTicks.h"
#include "ui/common/ChartFrame.h"
#include "ui/common/FormWidgets.h"
#include "ui/common/MethodBoxes.h"
#include "ui/common/MethodStyle.h"
#include "ui/common/ModeLayout.h"
#include "ui/neural/NeuralSplitsPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtCharts/QChartView>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <cmath>

namespace {
QChartView* chartView(const QString& title, QValueAxis* x, QValueAxis* y, const QString& xLabel,
                      const QString& yLabel) {
    auto* c = framedChart(title, x, {xLabel, "%.0f"}, y, {yLabel, "%.3g"});
    c->legend()->setAlignment(Qt::AlignBottom);
    auto* v = new QChartView(c);
    v->setRenderHint(QPainter::Antialiasing);
    v->setMinimumSize(320, 240);
    return v;
}

} // namespace

NeuralPage::NeuralPage(QWidget* parent)
    : LabPageOf(parent, {.sessionKind = "neural",
                         .curvesFileName = "neural-curves.csv",
                         .offersCsv = true,
                         .jobName = "splits table",
                         .defaultLength = 60,
                         .status = StatusStyle::Unit}),
      m_tabs(new QTabWidget), m_splitsPanel(new NeuralSplitsPanel) {
    makeControls();
    auto* open = new QPushButton("Open CSV…");
    layOut(open, makeMethods(), makeIterateMethods());
    connectControls(open);
}

void NeuralPage::makeControls() {
    m_dataset = new QComboBox;
    for (const auto& [key, label] : kNeuralDatasets)
        m_dataset->addItem(QString::fromUtf8(label), QString::fromUtf8(key));
    m_dataset->setToolTip(
        "UCI set (standardised with the training part's statistics; no bias column: the network "
        "has its own biases), or the generated in-between set: one input, two clusters of rows "
        "with a gap between them, where the predictive over x shows which methods are "
        "over-confident. Open CSV… (Ctrl+Shift+O in this mode) uses any CSV's last column as "
        "target.");
    m_hidden = new QComboBox;
    m_hidden->addItem("1 × 50 ReLU (small)", "50");
    m_hidden->addItem("2 × 50 ReLU (large)", "50,50");
    m_hidden->setToolTip(
        "The report's SmallNN and LargeNN; VIFA overfits the large one, VIPPCA repairs it.");
    m_optimiser = new QComboBox;
    m_optimiser->addItem("Adam", "adam");
    m_optimiser->addItem("SGD", "sgd");
    m_init = new QComboBox;
    m_init->addItem("report (c = 0, ψ = 1)", "report");
    m_init->addItem("scaled (LeCun-style c, ψ = 0.01)", "scaled");
    m_init->setToolTip("Start of q. The report's code starts every weight at mean 0 and variance "
                       "1: VIFA on the large "
                       "network then stays near the prior and predicts the mean (report Table 3), "
                       "VIPPCA's fixed small σ "
                       "avoids that. Starting at a network-scaled point removes VIFA's failure.");
    makeRunFields(20, 5, "epochs", "Epochs per Step (→).");
    // The numbers of core/neural/NeuralParams.h: their ranges, defaults and tooltips.
    m_length = m_fields.field("epochs");
    qobject_cast<QSpinBox*>(m_length)->setSuffix(" epochs");
}

QGroupBox* NeuralPage::makeMethods() {
    return methodGroup(
        fa::allNeuralMethods(), fa::neuralMethodName, std::nullopt,
        [](fa::NeuralMethod m) {
            return m == fa::NeuralMethod::VifaGauss || m == fa::NeuralMethod::VippcaGauss;
        },
        m_methods);
}

QGroupBox* NeuralPage::makeIterateMethods() {
    QGroupBox* group = methodGroup(
        fa::allIterateMethods(), fa::iterateMethodName, fa::Lab::Neural,
        [](fa::IterateMethod) { return false; }, m_iterateMethods);
    group->setTitle("From SGD iterates");
    group->setToolTip("The network trained by SGD with weight decay (MAP), and the Gaussians its "
                      "iterates give after the SWA start: online FA (SWA-FA, the thesis's "
                      "method), SWAG, and ensembles of M runs. Same prior and noise precisions.");
    auto* f = new QFormLayout;
    m_fields.addRows(f, {"members", "rank", "swa-start", "sgd-lr", "sgd-batch", "sga-lr"});
    m_faStart = new QComboBox;
    m_faStart->addItem("thesis (ψ = 1)", "thesis");
    m_faStart->addItem("iterates' scale", "iterates");
    m_faStart->setToolTip(
        "Where SWA-FA's online EM / SGA start. thesis: F₀ a random orthonormal frame and ψ = 1, "
        "the thesis's start, far wider than a network's iterates (its fit then stays much too "
        "narrow: see the trajectory chart). iterates' scale: F₀ and ψ scaled weight by weight "
        "to the iterates' spread over the epoch before the SWA start.");
    f->addRow("FA start", m_faStart);
    static_cast<QVBoxLayout*>(group->layout())->addLayout(f);
    return group;
}

void NeuralPage::layOut(QPushButton* open, QGroupBox* methods, QGroupBox* iterates) {
    auto* form = new QGroupBox("Network and training");
    auto* f = new QFormLayout(form);
    f->addRow("data set", m_dataset);
    f->addRow(open);
    f->addRow("network", m_hidden);
    m_fields.addRows(f, {"hyper.priorPrecision", "hyper.noisePrecision", "hyper.sigma", "lr"});
    f->addRow("optimiser", m_optimiser);
    f->addRow("start of q", m_init);
    m_fields.addRows(f, {"latent", "batch", "samples", "data.split", "seed"});
    f->addRow("speed", m_speed);
    f->addRow("step", m_step);
    m_fields.addRows(f, {"epochs"});

    m_nmllX = new QValueAxis, m_nmllY = new QValueAxis, m_rmseX = new QValueAxis,
    m_rmseY = new QValueAxis, m_covX = new QValueAxis, m_covY = new QValueAxis;
    m_predX = new QValueAxis, m_predY = new QValueAxis;
    m_trajX = new QValueAxis, m_trajY = new QValueAxis;
    m_nmllChart = chartView("NMLL (dashed: train, solid: test)", m_nmllX, m_nmllY, "epoch", "NMLL");
    m_rmseChart = chartView("RMSE (dashed: train, solid: test)", m_rmseX, m_rmseY, "epoch",
                            "RMSE, original units");
    m_covChart =
        chartView("Test targets inside the 95 % interval", m_covX, m_covY, "epoch", "coverage");
    // A little above 1 (ticks at 0, 0.2, …, 1): a method whose every test target lies inside its
    // interval draws its line below the frame, not on it (the chart looked empty at 200 %).
    m_covY->setRange(0.0, 1.04);
    m_covY->setTickType(QValueAxis::TicksDynamic);
    m_covY->setTickAnchor(0.0);
    m_covY->setTickInterval(0.2);
    m_covY->setLabelFormat("%.2f");
    m_predChart = chartView("Test predictive: mean ± 2 sd against the truth (sorted)", m_predX,
                            m_predY, "test point (by target)", "target");
    m_trajChart = chartView("SGD iterates on the fit's two leading directions", m_trajX, m_trajY,
                            "u₁ · (θ − mean)", "u₂ · (θ − mean)");
    m_trajX->setLabelFormat("%.3g");
    m_trajChart->setToolTip(
        "The SGD iterates the first checked SWA-FA or SWAG method collects (its first member), "
        "after the SWA start, on the two leading directions u₁, u₂ of its fitted Gaussian "
        "(the leading eigenvectors of F Fᵀ), centred at its mean (the running average). "
        "Solid: the fit's 95 % ellipse, the projection of F Fᵀ + Ψ; dashed: SWAG of the same "
        "iterates. At most a few hundred iterates are kept, evenly spread over the run.");
    m_truth = new QScatterSeries;
    m_truth->setName("truth");
    m_truth->setMarkerSize(6);
    m_truth->setColor(Qt::black);
    m_predChart->chart()->addSeries(m_truth);
    m_truth->attachAxis(m_predX);
    m_truth->attachAxis(m_predY);
    makeTrajectorySeries();
    for (QChartView* v : {m_nmllChart, m_rmseChart, m_covChart, m_trajChart}) {
        v->chart()->legend()->hide();
        v->setMinimumSize(260, 240); // three a row beside the parameters at 1280 pixels
    }
    // Up to nine entries (truth, each method's mean and band): one a line, beside the wide plot.
    m_predChart->chart()->legend()->setAlignment(Qt::AlignRight);

    auto* live = new QWidget;
    m_liveGrid = new QGridLayout(live);
    m_liveGrid->addWidget(m_nmllChart, 0, 0);
    m_liveGrid->addWidget(m_rmseChart, 0, 1);
    m_liveGrid->addWidget(m_covChart, 0, 2);
    m_liveGrid->addWidget(m_predChart, 1, 0, 1, 3);
    m_liveGrid->addWidget(m_trajChart, 1, 2);
    m_trajChart->hide(); // shown while a method collects iterates (drawTrajectory)
    for (int column = 0; column < 3; ++column) // three equal columns, whatever the titles
        m_liveGrid->setColumnStretch(column, 1);
    m_tabs->addTab(live, "Live training");
    m_tabs->addTab(m_splitsPanel, "Splits table (mean ± SE)");
    modeLayout(this, {form, methods, iterates}, m_tabs, &m_parameters);
}

void NeuralPage::connectControls(QPushButton* open) {
    connect(m_splitsPanel, &NeuralSplitsPanel::runRequested, this, &NeuralPage::runSplits);
    connect(m_splitsPanel, &NeuralSplitsPanel::finished, this, &NeuralPage::splitsDone);
    connect(m_splitsPanel, &NeuralSplitsPanel::message, this, &NeuralPage::message);
    connect(open, &QPushButton::clicked, this, &NeuralPage::openCsvDialog);
    auto restart = [this] {
        if (!m_quiet)
            reset();
    };
    connect(m_dataset, &QComboBox::currentIndexChanged, this, restart);
    connect(m_hidden, &QComboBox::currentIndexChanged, this, restart);
    connect(m_optimiser, &QComboBox::currentIndexChanged, this, restart);
    connect(m_init, &QComboBox::currentIndexChanged, this, restart);
    connect(m_faStart, &QComboBox::currentIndexChanged, this, restart);
    m_methods.onToggled(this, restart);
    m_iterateMethods.onToggled(this, restart);
    m_fields.onAnyChanged(this, restart, {m_length});
    connectLength(m_length, m_quiet);
    reset();
}

bool NeuralPage::openCsv(const QString& path) {
    if (!regressionCsvReadable(path))
        return false;
    m_quiet = true;
    selectDataset(path);
    m_quiet = false;
    reset();
    return true;
}

void NeuralPage::runSplits() {
    m_splitsPanel->run(config());
}

void NeuralPage::cancelSplits() {
    m_splitsPanel->cancel();
}

QLineSeries* NeuralPage::series(std::map<std::string, QLineSeries*>& pool, QChartView* view,
                                const std::string& key, const QColor& colour, Qt::PenStyle style,
                                const QString& name) {
    if (auto it = pool.find(key); it != pool.end())
        return it->second;
    auto* s = new QLineSeries;
    s->setPen(QPen(colour, style == Qt::SolidLine ? 2.0 : 1.2, style));
    s->setName(name);
    view->chart()->addSeries(s);
    if (name.isEmpty())
        for (QLegendMarker* marker : view->chart()->legend()->markers(s))
            marker->setVisible(false);
    const auto axes = view->chart()->axes();
    for (QAbstractAxis* a : axes)
        s->attachAxis(a);
    return pool[key] = s;
}

QLineSeries* NeuralPage::curve(const QString& method, const QString& which) const {
    const auto it = m_curves.find((method + "/" + which).toStdString());
    return it == m_curves.end() ? nullptr : it->second;
}

QLineSeries* NeuralPage::predictiveMean(const QString& method) const {
    const auto it = m_pred.find((method + "/mean").toStdString());
    return it == m_pred.end() ? nullptr : it->second;
}

void NeuralPage::makeTrajectorySeries() {
    m_trajPoints = new QScatterSeries;
    m_trajPoints->setName("iterates kept");
    m_trajPoints->setMarkerSize(5);
    m_trajPoints->setBorderColor(Qt::transparent);
    m_fitEllipse = new QLineSeries;
    m_swagEllipse = new QLineSeries;
    for (QAbstractSeries* series :
         {static_cast<QAbstractSeries*>(m_trajPoints), static_cast<QAbstractSeries*>(m_fitEllipse),
          static_cast<QAbstractSeries*>(m_swagEllipse)}) {
        m_trajChart->chart()->addSeries(series);
        series->attachAxis(m_trajX);
        series->attachAxis(m_trajY);
    }
}

std::vector<std::pair<QString, QWidget*>> NeuralPage::charts() const {
    std::vector<std::pair<QString, QWidget*>> out{{"neural-nmll", m_nmllChart},
                                                  {"neural-rmse", m_rmseChart},
                                                  {"neural-coverage", m_covChart},
                                                  {"neural-predictive", m_predChart},
                                                  {"neural-table", m_splitsPanel->table()}};
    if (!m_trajChart->isHidden()) // shown while a method collects iterates
        out.emplace_back("neural-trajectory", m_trajChart);
    return out;
}

bool NeuralPage::exportCurves(const QString& path) {
    const auto snapshot = latestSnapshot();
    if (!snapshot) {
        fail("Cannot export", "there is no run");
        return false;
    }
    const int split = static_cast<int>(fieldValue(m_fields.field("data.split")));
    return writeCsv(path, "the curves",
                    [&](std::ostream& out) { fa::io::writeNeuralCurveCsv(out, *snapshot, split); });
}

bool NeuralPage::exportRows(const QString& path) {
    const bool ok = m_splitsPanel->exportRows(path);
    if (!ok)
        m_lastError = m_splitsPanel->lastError();
    return ok;
}

QTableWidget* NeuralPage::table() const {
    return m_splitsPanel->table();
}

const std::vector<fa::NeuralRow>& NeuralPage::splitRows() const {
    return m_splitsPanel->rows();
}

void NeuralPage::setSplitSettings(int splits, int searchTrials, int folds, int epochs) {
    m_splitsPanel->setSettings(splits, searchTrials, folds, epochs);
}
