#include "ui/explorer/ControlPanel.h"

#include "ui/common/FormWidgets.h"

#include <memory>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QSpinBox>
#include <QVBoxLayout>

ControlPanel::ControlPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(modelBox());
    layout->addWidget(fittingBox());
    layout->addWidget(viewBox());
    connectControls();
}

QGroupBox* ControlPanel::modelBox() {
    // D, K, the seed, the fitted K, η, the warm-up and the length: core/explorer/ExplorerParams.h
    // (the CLI's and the sessions' ranges too: a session's values are shown, never clamped).
    m_dim = m_fields.field("dim");
    m_specLo = realBox(fa::kSpectrumMin, fa::kSpectrumMax, 1.0, 4,
                       "Spectrum lower bound a: each row of F is scaled by s, s² ~ U(a, b).");
    m_specHi = realBox(fa::kSpectrumMin, fa::kSpectrumMax, 10.0, 4,
                       "Spectrum upper bound b; ψ ~ U(0, max s²). [1, 10⁴] makes SGA blow up.");
    m_generator = new QComboBox;
    m_generator->addItem("exact (Algorithm 3, O(D³))", "exact");
    m_generator->addItem("haar (QR frame, O(D K²))", "haar");
    m_generator->setToolTip(
        "exact: top-K eigenvectors of A Aᵀ (D ≤ 2000). haar: the same distribution of frames "
        "from the QR of a D × K Gaussian matrix.");

    auto* model = new QGroupBox("True model");
    auto* mf = new QFormLayout(model);
    m_fields.addRows(mf, {"dim", "latent"});
    mf->addRow("spectrum a", m_specLo);
    mf->addRow("spectrum b", m_specHi);
    mf->addRow("generator", m_generator);
    m_fields.addRows(mf, {"seed"});
    return model;
}

QGroupBox* ControlPanel::fittingBox() {
    m_em = new QCheckBox("online EM");
    m_em->setChecked(true);
    m_em->setToolTip(
        "Thesis Algorithm 2: one E-step per observation, running sufficient statistics;\n"
        "F = Ā H⁻¹, ψ = d²̄ − rowsum(F ⊙ Ā).");
    m_sga = new QCheckBox("online SGA");
    m_sga->setChecked(true);
    m_sga->setToolTip(
        "Thesis Algorithm 1: gradient ascent on log N(θₜ; θ̄, F Fᵀ + Ψ) in F and log ψ.");
    m_batch = new QCheckBox("batch FA at each decade");
    m_batch->setChecked(true);
    m_batch->setToolTip("scikit-learn's SVD-based FactorAnalysis refitted on the first T samples "
                        "at T = 100, 1000, …");
    m_lr = m_fields.field("lr");
    qobject_cast<QDoubleSpinBox*>(m_lr)->setSingleStep(0.0005);

    auto* fitting = new QGroupBox("Fitting");
    auto* ff = new QFormLayout(fitting);
    ff->addRow(m_em);
    ff->addRow(m_sga);
    ff->addRow(m_batch);
    m_fields.addRows(ff, {"fitting.fitLatent", "lr", "warmup", "fitting.totalSamples"});
    return fitting;
}

QGroupBox* ControlPanel::viewBox() {
    m_speed = intBox(0, 10000000, 0,
                     "Observations per second while playing; 0 runs as fast as the CPU allows.\n"
                     "Slow speeds (1–50) let you watch single observations move the fits.");
    m_speed->setSpecialValueText("as fast as possible");
    m_speed->setObjectName("speed"); // the toolbar's speed box mirrors it
    m_speed->setSingleStep(10);
    m_speed->setSuffix(" obs/s");
    m_stepN = intBox(1, 1000000, 1,
                     "Observations per Step (→). The last one is explained in 'Last step'.");
    m_coordI = intBox(1, 100, 1, "First coordinate of the 2D view (horizontal axis).");
    m_coordJ = intBox(1, 100, 2, "Second coordinate of the 2D view (vertical axis).");
    m_block = intBox(2, 200, 40,
                     "The heat maps show the leading block of this size of the D × D covariance\n"
                     "(the whole matrix when D is smaller).");
    auto* view = new QGroupBox("Run and view");
    auto* vf = new QFormLayout(view);
    vf->addRow("speed", m_speed);
    vf->addRow("step size", m_stepN);
    vf->addRow("2D view x", m_coordI);
    vf->addRow("2D view y", m_coordJ);
    vf->addRow("heat-map block", m_block);
    return view;
}

void ControlPanel::connectControls() {
    m_fields.onAnyChanged(this, [this] { emit structureChanged(); }, {m_lr});
    for (QDoubleSpinBox* b : {m_specLo, m_specHi})
        connect(b, &QDoubleSpinBox::valueChanged, this, &ControlPanel::structureChanged);
    for (QCheckBox* b : {m_em, m_sga, m_batch})
        connect(b, &QCheckBox::toggled, this, &ControlPanel::structureChanged);
    connect(m_generator, &QComboBox::currentIndexChanged, this, &ControlPanel::structureChanged);
    onFieldChanged(m_lr, this, [this](double eta) { emit learningRateChanged(eta); });
    connect(m_speed, &QSpinBox::valueChanged, this, [this](int v) { emit speedChanged(v); });
    for (QSpinBox* b : {m_coordI, m_coordJ, m_block})
        connect(b, &QSpinBox::valueChanged, this, &ControlPanel::viewChanged);
    auto fitCoordinates = [this](double D) { // the 2D view's coordinates follow D
        m_coordI->setMaximum(static_cast<int>(D));
        m_coordJ->setMaximum(static_cast<int>(D));
    };
    onFieldChanged(m_dim, this, fitCoordinates);
    fitCoordinates(fieldValue(m_dim));
}

fa::ViewOptions ControlPanel::viewOptions() const {
    fa::ViewOptions v;
    v.coordI = m_coordI->value() - 1;
    v.coordJ = m_coordJ->value() - 1;
    v.blockSize = m_block->value();
    return v;
}

void ControlPanel::setViewOptions(const fa::ViewOptions& v) {
    const QSignalBlocker a(m_coordI), b(m_coordJ), c(m_block);
    m_coordI->setValue(v.coordI + 1);
    m_coordJ->setValue(v.coordJ + 1);
    m_block->setValue(v.blockSize);
}

double ControlPanel::speed() const {
    return m_speed->value();
}

void ControlPanel::setSpeed(double obsPerSecond) {
    const QSignalBlocker b(m_speed);
    m_speed->setValue(static_cast<int>(obsPerSecond));
}

long ControlPanel::stepCount() const {
    return m_stepN->value();
}

fa::ExplorerConfig ControlPanel::config() const {
    fa::ExplorerConfig c;
    m_fields.read(c);
    c.generator.spectrumLo = m_specLo->value();
    c.generator.spectrumHi = m_specHi->value();
    c.generator.kind = m_generator->currentData().toString() == "haar" ? fa::GeneratorKind::Haar
                                                                       : fa::GeneratorKind::Exact;
    c.runEm = m_em->isChecked();
    c.runSga = m_sga->isChecked();
    c.runBatch = m_batch->isChecked();
    return c;
}

void ControlPanel::setConfig(const fa::ExplorerConfig& c) {
    std::vector<std::unique_ptr<QSignalBlocker>> blockers;
    for (QObject* o :
         std::initializer_list<QObject*>{m_specLo, m_specHi, m_generator, m_em, m_sga, m_batch})
        blockers.push_back(std::make_unique<QSignalBlocker>(o));
    for (QObject* o : m_fields.fields())
        blockers.push_back(std::make_unique<QSignalBlocker>(o));
    m_fields.show(c);
    m_coordI->setMaximum(c.generator.dim);
    m_coordJ->setMaximum(c.generator.dim);
    m_specLo->setValue(c.generator.spectrumLo);
    m_specHi->setValue(c.generator.spectrumHi);
    m_generator->setCurrentIndex(c.generator.kind == fa::GeneratorKind::Haar ? 1 : 0);
    m_em->setChecked(c.runEm);
    m_sga->setChecked(c.runSga);
    m_batch->setChecked(c.runBatch);
}
