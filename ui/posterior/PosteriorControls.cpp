#include "ui/posterior/PosteriorControls.h"
#include "ui/posterior/LogSlider.h"

#include "ui/common/FormWidgets.h"
#include "ui/common/MethodStyle.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>
#include <cmath>

using namespace logslider;

PosteriorControls::PosteriorControls(QWidget* parent) : QWidget(parent) {
    auto* open = new QPushButton("Open CSV…");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    for (QGroupBox* group : {makeDataGroup(open), makeMethodsGroup(), makeVariationalGroup(),
                             makeSgdGroup(), makeViewGroup()})
        layout->addWidget(group);
    connectControls(open);
    showLearningRate(fa::paramByFlag(fa::posteriorLiveParams(), "sgd-lr").fallback);
    m_lambdaLabel->setText("L2 strength λ");
    updateEnabled();
}

QGroupBox* PosteriorControls::makeDataGroup(QPushButton* open) {
    m_dataset = new QComboBox;
    m_dataset->addItem("Synthetic, 2 parameters (report Fig. 1)", "synthetic");
    m_dataset->addItem("Boston housing (13 inputs)", "boston");
    m_dataset->addItem("Concrete strength (8 inputs)", "concrete");
    m_dataset->addItem("Energy efficiency, heating (8 inputs)", "energy");
    m_dataset->addItem("Yacht hydrodynamics (6 inputs)", "yacht");
    m_dataset->addItem("Logistic regression, 2 parameters (grid posterior)", "logistic-synthetic");
    m_dataset->addItem("Bimodal bad case y = w₁w₂x + ε (grid posterior)", "bimodal-synthetic");
    // As wide as its usual entries, not its longest: the popup shows every name in full.
    m_dataset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_dataset->setMinimumContentsLength(30);
    m_dataset->setToolTip(
        "Synthetic: x ~ N(0, [[1, .5], [.5, 1]]), θ ~ N(0, I/α), y = θᵀx + ε, ε ~ N(0, 1/β), "
        "α = 0.01, β = 0.1, N rows, no bias.\nLogistic regression (N = 60) and the bimodal bad "
        "case: exact posterior on a grid, drawn as its true contours.\nUCI sets: standardised, "
        "bias column, 50/50 split "
        "(the posterior uses the training half).");
    open->setToolTip("Any CSV with a header row and numeric cells; choose the target column below "
                     "(Mode menu: Ctrl+Shift+O)");
    m_target = new QComboBox;
    m_target->setToolTip("The column to predict (CSV files only); every other column is an input.");
    auto* share = qobject_cast<QDoubleSpinBox*>(m_fields.field("train-fraction"));
    share->setSpecialValueText("auto");
    share->setSingleStep(0.05);
    m_hyper = new QComboBox;
    m_hyper->addItem("automatic", "auto");
    m_hyper->addItem("thesis rule", "thesis");
    m_hyper->addItem("evidence maximisation", "evidence");
    m_hyper->addItem("by hand", "manual");
    m_hyper->setToolTip(
        "Prior precision α and noise precision β of the exact posterior.\n"
        "automatic: the synthetic recipe's α, β; evidence maximisation for real data.\n"
        "thesis rule: β = 1/var(y), α = 0.01 mean diag(β XᵀX).\n"
        "evidence maximisation: MacKay's fixed point, as scikit-learn's BayesianRidge.");
    m_priorLabel = new QLabel;
    m_priorLabel->setWordWrap(true);
    followWrappedHeight(m_priorLabel);

    auto* data = new QGroupBox("Data and prior");
    auto* df = new QFormLayout(data);
    df->addRow("data set", m_dataset);
    df->addRow(open);
    df->addRow("target", m_target);
    m_fields.addRows(df, {"n"});
    df->addRow("train share", share);
    df->addRow("α, β", m_hyper);
    m_fields.addRows(df, {"alpha", "beta"});
    df->addRow(m_priorLabel);
    return data;
}

QGroupBox* PosteriorControls::makeMethodsGroup() {
    auto* methods = new QGroupBox("Approximations");
    auto* ml = new QVBoxLayout(methods);
    const std::vector<std::pair<fa::PosteriorMethod, QString>> tips = {
        {fa::PosteriorMethod::VifaGauss,
         "VIFA (report Algorithm 1) with the Gaussian prior N(0, α⁻¹I)"},
        {fa::PosteriorMethod::VifaLaplace,
         "VIFA with a Laplace prior of the same variance (rate √(2α))"},
        {fa::PosteriorMethod::Vippca, "VIPPCA: Ψ = σI fixed, only c and F learned"},
        {fa::PosteriorMethod::SgdEm, "Online EM (thesis Algorithm 2) fitted to the SGD iterates"},
        {fa::PosteriorMethod::SgdSga, "Online SGA (thesis Algorithm 1) fitted to the SGD iterates"},
        {fa::PosteriorMethod::Swag,
         "SWAG: running mean, diagonal variance and last-K deviations of the iterates"},
        {fa::PosteriorMethod::ViFull,
         "Gaussian VI with a full covariance L Lᵀ (L lower-triangular, log diagonal)"},
        {fa::PosteriorMethod::ViMeanField,
         "Gaussian VI with a diagonal covariance (mean field): underestimates correlated "
         "variances"},
    };
    for (const auto& [method, tip] : tips) {
        auto* box = new QCheckBox(displayName(fa::methodName(method)));
        box->setToolTip(tip);
        QPalette pal = box->palette();
        pal.setColor(QPalette::WindowText, colourFor(fa::methodName(method)));
        box->setPalette(pal);
        box->setChecked(method == fa::PosteriorMethod::VifaGauss ||
                        method == fa::PosteriorMethod::SgdEm ||
                        method == fa::PosteriorMethod::Swag);
        ml->addWidget(box);
        m_methods.emplace_back(method, box);
    }
    auto* common = new QFormLayout;
    m_fields.addRows(common, {"latent", "seed"});
    ml->addLayout(common);
    return methods;
}

QGroupBox* PosteriorControls::makeVariationalGroup() {
    m_optimiser = new QComboBox;
    m_optimiser->addItem("SGD (report)", "sgd");
    m_optimiser->addItem("Adam", "adam");
    auto* clip = qobject_cast<QDoubleSpinBox*>(m_fields.field("max-grad-norm"));
    clip->setSpecialValueText("off");
    m_estimator = new QComboBox;
    m_estimator->addItem("reparameterisation", "reparam");
    m_estimator->addItem("score function", "score");
    m_estimator->addItem("score function + baseline", "score-baseline");
    m_estimator->setToolTip(
        "How every variational fit estimates the likelihood term's gradient: through "
        "w = m + Lε (reparameterisation), by E[f ∇log q] (score function, REINFORCE), or the "
        "same with a leave-one-out baseline (needs L ≥ 2). All unbiased; their variances differ "
        "by orders of magnitude.");
    m_compare = new QCheckBox("compare the three estimators");
    m_compare->setToolTip("Also run the first full or mean-field VI fit with the other two "
                          "gradient estimators (same seed, same steps): their KL curves appear "
                          "side by side in the Gradient estimators tab.");

    auto* vifa = new QGroupBox("Variational fits");
    auto* vf = new QFormLayout(vifa);
    m_fields.addRows(vf, {"batch", "samples", "lr-c", "lr-f", "lr-gamma"});
    vf->addRow("optimiser", m_optimiser);
    vf->addRow("clip norm", clip);
    m_fields.addRows(vf, {"sigma"});
    vf->addRow("gradient (VI)", m_estimator);
    vf->addRow(m_compare);
    return vifa;
}

QGroupBox* PosteriorControls::makeSgdGroup() {
    // The learning rate's slider spans its schema's range, 100 positions a decade.
    const fa::ParamInfo& rate = fa::paramByFlag(fa::posteriorLiveParams(), "sgd-lr");
    m_lrSlider = logSlider(sliderPosition(rate.lo), sliderPosition(rate.hi),
                           QString::fromStdString(rate.help));
    m_lambdaSlider = logSlider(
        kLambdaLo, kLambdaHi,
        "L2 strength λ of the SGD loss, live (log scale). λ = α/β makes the loss's minimum the "
        "posterior mean; other values move the cloud away from it.");
    m_lrLabel = new QLabel;
    m_lambdaLabel = new QLabel;
    m_resetLambda = new QPushButton("λ = α/β");
    m_resetLambda->setToolTip("Back to the λ that matches the exact posterior");

    auto* sgd = new QGroupBox("SGD iterates (live)");
    auto* sf = new QFormLayout(sgd);
    m_fields.addRows(sf, {"sgd-batch", "warmup-epochs"});
    sf->addRow(m_lrLabel);
    sf->addRow(m_lrSlider);
    sf->addRow(m_lambdaLabel);
    auto* lambdaRow = new QHBoxLayout;
    lambdaRow->addWidget(m_lambdaSlider, 1);
    lambdaRow->addWidget(m_resetLambda);
    sf->addRow(lambdaRow);
    return sgd;
}

QGroupBox* PosteriorControls::makeViewGroup() {
    m_coordI = intBox(1, 100000, 1, "First parameter shown in the 2D contour view.");
    m_coordJ = intBox(1, 100000, 2, "Second parameter shown in the 2D contour view.");
    m_coordI->setAccessibleName("First parameter shown"); // both share the row "parameters"
    m_coordJ->setAccessibleName("Second parameter shown");
    m_speed = intBox(0, 10000000, 250,
                     "Epochs per second while playing; 0 runs as fast as the CPU allows.");
    m_speed->setSpecialValueText("as fast as possible");
    m_speed->setObjectName("speed"); // the toolbar's speed box mirrors it
    m_speed->setSuffix(" epochs/s");
    m_speed->setSingleStep(50);
    m_step = intBox(1, 1000000, 10, "Epochs per Step (→).");
    m_length = m_fields.field("epochs");
    qobject_cast<QSpinBox*>(m_length)->setSuffix(" epochs");

    auto* view = new QGroupBox("View");
    auto* vw = new QFormLayout(view);
    auto* coords = new QHBoxLayout;
    coords->addWidget(m_coordI);
    coords->addWidget(m_coordJ);
    vw->addRow("parameters", coords);
    vw->addRow("speed", m_speed);
    vw->addRow("step", m_step);
    m_fields.addRows(vw, {"epochs"});
    return view;
}

void PosteriorControls::connectControls(QPushButton* open) {
    connect(open, &QPushButton::clicked, this, &PosteriorControls::openCsvRequested);
    for (QComboBox* box : {m_dataset, m_target, m_hyper, m_optimiser, m_estimator})
        connect(box, &QComboBox::currentIndexChanged, this, &PosteriorControls::emitStructure);
    m_methods.onToggled(this, &PosteriorControls::emitStructure);
    connect(m_compare, &QCheckBox::toggled, this, &PosteriorControls::emitStructure);
    m_fields.onAnyChanged(this, [this] { emitStructure(); }, {m_length});
    connect(m_lrSlider, &QSlider::valueChanged, this, [this](int p) {
        m_sgdLearningRate = fromSlider(p);
        m_lrLabel->setText(QString("learning rate η = %1").arg(m_sgdLearningRate, 0, 'g', 3));
        if (!m_quiet)
            emit learningRateChanged(m_sgdLearningRate);
    });
    connect(m_lambdaSlider, &QSlider::valueChanged, this, [this](int p) {
        m_lambdaLabel->setText(QString("L2 strength λ = %1").arg(fromSlider(p), 0, 'g', 3));
        if (!m_quiet)
            emit lambdaChanged(fromSlider(p));
    });
    connect(m_resetLambda, &QPushButton::clicked, this, [this] {
        if (m_defaultLambda > 0.0)
            emit lambdaChanged(m_defaultLambda);
    });
    auto coordsChanged = [this] {
        if (!m_quiet)
            emit coordinatesChanged(m_coordI->value() - 1, m_coordJ->value() - 1);
    };
    connect(m_coordI, &QSpinBox::valueChanged, this, coordsChanged);
    connect(m_coordJ, &QSpinBox::valueChanged, this, coordsChanged);
    connect(m_speed, &QSpinBox::valueChanged, this, [this](int v) { emit speedChanged(v); });
}

void PosteriorControls::showLearningRate(double eta) {
    m_sgdLearningRate = eta;
    {
        const QSignalBlocker block(m_lrSlider);
        m_lrSlider->setValue(toSlider(eta, m_lrSlider->minimum(), m_lrSlider->maximum()));
    }
    m_lrLabel->setText(QString("learning rate η = %1").arg(eta, 0, 'g', 3));
}

void PosteriorControls::emitStructure() {
    updateEnabled();
    if (!m_quiet)
        emit structureChanged();
}

void PosteriorControls::updateEnabled() {
    const QString data = m_dataset->currentData().toString();
    m_target->setEnabled(data != "synthetic" && m_target->count() > 0 &&
                         m_dataset->currentIndex() >= kBuiltinSets);
    m_fields.field("n")->setEnabled(data == "synthetic");
    const bool manual = m_hyper->currentData().toString() == "manual";
    m_fields.field("alpha")->setEnabled(manual);
    m_fields.field("beta")->setEnabled(manual);
}

QCheckBox* PosteriorControls::methodBox(fa::PosteriorMethod method) const {
    return m_methods.box(method);
}

bool PosteriorControls::useCsv(const QString& path, QString* error) {
    if (!showCsv(path, error))
        return false;
    emitStructure();
    return true;
}

bool PosteriorControls::showCsv(const QString& path, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        if (error)
            *error = QString("%1: cannot open the file").arg(path);
        return false;
    }
    const QStringList header = QString::fromUtf8(f.readLine()).trimmed().split(',');
    if (header.size() < 2) {
        if (error)
            *error = QString("%1: row 1 needs at least two column names").arg(path);
        return false;
    }
    m_quiet = true;
    m_csvPath = path;
    const QString label = "CSV: " + QFileInfo(path).fileName();
    if (m_dataset->count() > kBuiltinSets)
        m_dataset->setItemText(kBuiltinSets, label), m_dataset->setItemData(kBuiltinSets, path);
    else
        m_dataset->addItem(label, path);
    m_dataset->setCurrentIndex(kBuiltinSets);
    m_target->clear();
    for (const QString& h : header)
        m_target->addItem(h.trimmed());
    m_target->setCurrentIndex(m_target->count() - 1);
    m_quiet = false;
    updateEnabled();
    return true;
}

int PosteriorControls::coordI() const {
    return m_coordI->value() - 1;
}
int PosteriorControls::coordJ() const {
    return m_coordJ->value() - 1;
}
long PosteriorControls::stepEpochs() const {
    return m_step->value();
}
double PosteriorControls::speed() const {
    return m_speed->value();
}

void PosteriorControls::setSpeed(double epochsPerSecond) {
    const QSignalBlocker block(m_speed);
    m_speed->setValue(static_cast<int>(epochsPerSecond));
}

void PosteriorControls::setCoordinates(int i, int j) {
    const QSignalBlocker a(m_coordI), b(m_coordJ);
    m_coordI->setValue(i + 1);
    m_coordJ->setValue(j + 1);
}

void PosteriorControls::showRun(const fa::PosteriorLiveSnapshot& s) {
    m_quiet = true;
    m_defaultLambda = s.hyper.alpha / s.hyper.beta;
    // The selector's word first: "automatic" chose the evidence, the thesis's values or the
    // data set's own (a generated target's fixed α, β, which the core calls manual).
    QString how = QString::fromStdString(fa::hyperModeName(s.hyperMode));
    if (m_hyper->currentData().toString() == "auto")
        how = s.hyperMode == fa::HyperMode::Manual ? "automatic: the data set's own"
                                                   : "automatic: " + how;
    m_priorLabel->setText(
        QString("in use (%1): α = %2, β = %3, λ = α/β = %4; D = %5, %6 training rows")
            .arg(how)
            .arg(s.hyper.alpha, 0, 'g', 4)
            .arg(s.hyper.beta, 0, 'g', 4)
            .arg(m_defaultLambda, 0, 'g', 4)
            .arg(s.exactMean.size())
            .arg(s.trainRows));
    followWrappedHeight(m_priorLabel);
    const int d = static_cast<int>(s.exactMean.size());
    m_coordI->setMaximum(d);
    m_coordJ->setMaximum(d);
    // A field being typed into keeps what the user is typing; the run follows it.
    if (!m_coordI->hasFocus())
        m_coordI->setValue(s.coordI + 1);
    if (!m_coordJ->hasFocus())
        m_coordJ->setValue(s.coordJ + 1);
    if (!m_lrSlider->isSliderDown() && s.sgdLearningRate > 0.0)
        showLearningRate(s.sgdLearningRate);
    if (!m_lambdaSlider->isSliderDown()) {
        m_lambdaSlider->setValue(toSlider(s.lambda, kLambdaLo, kLambdaHi));
        m_lambdaLabel->setText(QString("L2 strength λ = %1").arg(s.lambda, 0, 'g', 3));
    }
    m_quiet = false;
}
