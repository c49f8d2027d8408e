#include "ui/nonlinear/NonlinearPage.h"

#include "core/io/ImageSets.h"
#include "core/io/RegressionCsv.h"
#include "ui/common/FormWidgets.h"
#include "ui/common/MethodBoxes.h"
#include "ui/common/MethodStyle.h"
#include "ui/common/ModeLayout.h"
#include "ui/nonlinear/NonlinearViews.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

NonlinearPage::NonlinearPage(QWidget* parent)
    : LabPageOf(parent, {.sessionKind = "nonlinear",
                         .curvesFileName = "vae.csv",
                         .offersCsv = true,
                         .status = StatusStyle::UnitOfLength}),
      m_elbo(new ElboView), m_gaps(new GapView), m_latentView(new LatentSpaceView),
      m_data(new DataSpaceView), m_pictures(new PictureView), m_dataSlot(new QStackedWidget) {
    makeControls();
    auto* open = new QPushButton("Open CSV…");
    layOut(open, makeMethods());
    connectControls(open);
}

void NonlinearPage::makeControls() {
    m_dataset = new QComboBox;
    for (const auto& [key, label] : std::vector<std::pair<QString, QString>>{
             {"nonlinear-synthetic", "Random network's manifold"},
             {"two-moons", "Two moons (lifted to D)"},
             {"swiss-roll", "Swiss roll (lifted to D)"},
             {"pinwheel", "Pinwheel (lifted to D)"},
             {"synthetic", "Generated PPCA (linear truth)"},
             {"boston", "Boston housing"},
             {"concrete", "Concrete strength"},
             {"energy", "Energy efficiency"},
             {"yacht", "Yacht hydrodynamics"},
             {"fashion-mnist", "Fashion-MNIST (pictures, 28×28)"},
             {"digits", "Handwritten digits (pictures, 8×8)"}})
        m_dataset->addItem(label, key);
    m_dataset->setToolTip(
        "Generated: a true-K latent through a fixed random tanh network into D dimensions; two "
        "moons, a pinwheel (2-D) and a swiss roll (3-D) lifted into D dimensions by a random "
        "orthonormal frame; PPCA from the explorer's generator. Noise: the data noise's "
        "standard deviation. Real data: z-scored with the fitting rows' statistics. Pictures: "
        "pixels in [0, 1], dequantised, not z-scored; rows: the first N pictures (Fashion-MNIST "
        "needs the Debian package dataset-fashion-mnist). Open CSV… (Ctrl+Shift+O) uses any CSV "
        "of numbers.");
    m_layers = intBox(0, 3, 1,
                      "Hidden layers of the decoder (and of the VAE's encoder); 0: a linear "
                      "decoder, i.e. FA / PPCA.");
    m_units = intBox(1, fa::kMaxHiddenUnits, 50, "Units in every hidden layer.");
    m_activation = new QComboBox;
    m_activation->addItem("tanh", "tanh");
    m_activation->addItem("ReLU", "relu");
    m_activation->setToolTip("The hidden layers' activation.");
    m_noise = new QComboBox;
    m_noise->addItem("Ψ diagonal, learned", "diagonal");
    m_noise->addItem("σ²I, learned", "isotropic");
    m_noise->addItem("σ²I, fixed", "fixed");
    m_noise->addItem("σ²(z) from the network", "network");
    m_noise->setToolTip("The decoder's noise for vEM and the VAE (the linear VAE uses σ²I, "
                        "learned, unless σ² is fixed). A fixed σ² weighs the likelihood against "
                        "the KL term (the slides after eq. 47). From the network: the decoder "
                        "outputs μ(z) and log σ²(z) (the notes' σ_j²(z)); it needs a hidden "
                        "layer.");
    m_encoderGradient = new QComboBox;
    m_encoderGradient->addItem("reparameterised", "reparam");
    m_encoderGradient->addItem("score function", "score");
    m_encoderGradient->addItem("score function + baseline", "score-baseline");
    m_encoderGradient->setToolTip(
        "How the VAE's encoder gets the gradient of E_q[log p(x|z)]: through the draw z = μ + σε "
        "(reparameterised), or by the score function (log p(x|z) − b) ∇ log q(z|x) with b = 0 "
        "or b = the mean of the row's other draws (needs 2 draws per row or more). The decoder's "
        "gradient stays pathwise, the KL's exact.");
    m_precision = new QComboBox;
    m_precision->addItem("double", "double");
    m_precision->addItem("float (faster)", "float");
    m_precision->setToolTip(
        "The VAE's network products while training: double, or float (single precision: about "
        "twice as fast on pictures, the numbers then differ from double's by float's rounding). "
        "Scoring stays in double. faexplorer-cli vae --precision.");
    // The parameters of core/vae/VaeParams.h: their ranges, defaults and tooltips.
    m_noiseVariance = m_fields.field("noise-variance");
    m_dim = m_fields.field("dim");
    m_trueLatent = m_fields.field("true-latent");
    m_samples = m_fields.field("samples");
    m_dataNoise = m_fields.field("data-noise");
    makeRunFields(10, 1, "epochs", "Epochs per Step (→).");
    m_viewMethod = new QComboBox;
    m_viewMethod->setToolTip("The method the latent and data views show.");
    m_colourBy = new QComboBox;
    m_colourBy->setToolTip("The latent view's colours: the position along a generated manifold, "
                           "or a column of the data.");
}

QGroupBox* NonlinearPage::makeMethods() {
    return methodGroup(
        std::vector<fa::VaeMethod>{fa::VaeMethod::Vem, fa::VaeMethod::Vae, fa::VaeMethod::LinearVae,
                                   fa::VaeMethod::Ppca},
        fa::vaeMethodName, fa::Lab::Nonlinear,
        [](fa::VaeMethod m) { return m != fa::VaeMethod::LinearVae; }, m_methods);
}

void NonlinearPage::layOut(QPushButton* open, QGroupBox* methods) {
    auto* form = new QGroupBox("Data");
    auto* f = new QFormLayout(form);
    f->addRow("data set", m_dataset);
    f->addRow(open);
    m_fields.addRows(f, {"test-fraction", "seed", "dim", "samples", "true-latent", "data-noise"});
    auto* model = new QGroupBox("Model and training");
    auto* g = new QFormLayout(model);
    m_fields.addRows(g, {"latent"});
    g->addRow("hidden layers", m_layers);
    g->addRow("units", m_units);
    g->addRow("activation", m_activation);
    g->addRow("noise", m_noise);
    m_fields.addRows(g, {"noise-variance", "lr", "batch", "e-steps"});
    g->addRow("encoder gradient", m_encoderGradient);
    g->addRow("VAE products", m_precision);
    m_fields.addRows(g, {"encoder-samples", "epochs"});
    auto* run = new QGroupBox("Speed and views");
    auto* r = new QFormLayout(run);
    r->addRow("speed", m_speed);
    r->addRow("step", m_step);
    r->addRow("views show", m_viewMethod);
    r->addRow("colour by", m_colourBy);
    r->addRow("view x", m_axes.x());
    r->addRow("view y", m_axes.y());
    m_summary = new QLabel;
    m_summary->setWordWrap(true);

    // The pictures take the data plane's place and size: their own hints (tiles want room) are
    // ignored by the stack, so the four views keep the layout they have without pictures.
    m_pictures->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    m_dataSlot->addWidget(m_data);
    m_dataSlot->addWidget(m_pictures);
    QWidget* views = fourViews({m_elbo, m_dataSlot, m_gaps, m_latentView}, m_summary);
    modeLayout(this, {form, methods, model, run}, views, &m_parameters);
}

void NonlinearPage::connectControls(QPushButton* open) {
    connect(open, &QPushButton::clicked, this, &NonlinearPage::openCsvDialog);
    auto restart = [this] {
        if (!m_quiet)
            reset();
    };
    connect(m_dataset, &QComboBox::currentIndexChanged, this, [this] {
        if (m_quiet)
            return;
        resetView(); // another data set has other columns
        dataChanged();
    });
    m_methods.onToggled(this, restart);
    for (QComboBox* box : {m_activation, m_noise, m_encoderGradient, m_precision})
        connect(box, &QComboBox::currentIndexChanged, this, restart);
    for (IntSpinBox* b : {m_layers, m_units})
        connect(b, &QSpinBox::valueChanged, this, restart);
    m_fields.onAnyChanged(this, restart, {m_dim, m_fields.field("epochs")});
    onFieldChanged(m_dim, this, [this](double) {
        if (m_quiet)
            return;
        resetView(); // the columns in view may be gone
        reset();
    });
    connect(m_noise, &QComboBox::currentIndexChanged, this,
            [this] { m_noiseVariance->setEnabled(m_noise->currentData() == "fixed"); });
    connectLength(m_fields.field("epochs"), m_quiet);
    connectPlane(m_axes, m_quiet);
    connect(m_viewMethod, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (!m_quiet && index >= 0)
            change([index](fa::VaeLive& run) { run.setViewMethod(index); }, Lasting::Yes);
    });
    connect(m_colourBy, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (!m_quiet && index >= 0)
            change([column = index - 1](fa::VaeLive& run) { run.setColourBy(column); },
                   Lasting::Yes);
    });
    m_noiseVariance->setEnabled(false);
    connect(m_methods.box(fa::VaeMethod::Vae), &QCheckBox::toggled, m_encoderGradient,
            &QWidget::setEnabled);
    connect(m_methods.box(fa::VaeMethod::Vae), &QCheckBox::toggled, m_precision,
            &QWidget::setEnabled);
    dataChanged();
}

QCheckBox* NonlinearPage::methodBox(fa::VaeMethod method) const {
    return m_methods.box(method);
}

void NonlinearPage::dataChanged() {
    const QString set = m_dataset->currentData().toString();
    const bool generated = m_dataset->currentIndex() < 5;
    const bool pictures = fa::io::isImageDataset(set.toStdString());
    if (pictures) { // the first N pictures: all the digits, enough clothes to stay live
        m_quiet = true;
        setFieldValue(m_samples, set == "digits" ? 1797 : 3000);
        m_quiet = false;
    }
    m_dim->setEnabled(generated);
    m_samples->setEnabled(generated || pictures);
    m_trueLatent->setEnabled(set == "synthetic" || set == "nonlinear-synthetic");
    m_dataNoise->setEnabled(generated && set != "synthetic");
    reset();
}

void NonlinearPage::configRestored() {
    m_axes.forget();
    m_shownMethods.clear();
}

void NonlinearPage::resetView() {
    m_quiet = true;
    m_axes.reset();
    m_colourBy->setCurrentIndex(0);
    m_quiet = false;
}

void NonlinearPage::draw(const fa::VaeLiveSnapshot& s) {
    fillChoices(s);
    m_elbo->show(s);
    m_gaps->show(s);
    m_latentView->show(s);
    const bool pictures = s.image.isImage() && s.mosaic.rows() > 0;
    if (pictures)
        m_pictures->show(s);
    else
        m_data->show(s);
    m_dataSlot->setCurrentWidget(pictures ? static_cast<QWidget*>(m_pictures) : m_data);
    QString text = QString("<b>%1</b>: %2 fitting rows, %3 held out, D = %4, K = %5. Latest "
                           "scoring (held-out ELBO / IW log-likelihood per row):")
                       .arg(QString::fromStdString(s.dataset))
                       .arg(s.trainRows)
                       .arg(s.testRows)
                       .arg(s.columns.size())
                       .arg(s.latent);
    for (const auto& m : s.methods) {
        const std::string id = fa::vaeMethodName(m.method);
        auto number = [](double v) {
            return std::isfinite(v) ? QString::number(v, 'f', 3) : QString("–");
        };
        if (m.method != fa::VaeMethod::Ppca && m.last.epoch == 0)
            continue; // not scored yet
        text +=
            QString(" &nbsp;<span style='color:%1'>%2</span> %3 / %4 (%5)")
                .arg(colourFor(id, fa::Lab::Nonlinear).name(), legendName(id, fa::Lab::Nonlinear))
                .arg(number(m.last.testElbo), number(m.last.iwLoglik),
                     QString::fromStdString(fa::statusNameOfCsvWord(m.status)));
    }
    m_summary->setText(text);
}
