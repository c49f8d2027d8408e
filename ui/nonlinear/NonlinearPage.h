#pragma once
// The window's "Nonlinear FA" lab: variational EM, the VAE, the linear VAE and PPCA's closed
// form fitted side by side to generated nonlinear data (a random network's manifold, two moons,
// a swiss roll, a pinwheel), generated PPCA data, the UCI sets or any CSV, one epoch at a time.
// Views: the ELBOs and the importance-weighted log-likelihood over epochs, the two gaps, the
// latent space and the data space with reconstructions, samples and the decoded latent grid.
#include "core/vae/VaeLive.h"
#include "core/vae/VaeParams.h"
#include "ui/common/LabPageOf.h"
#include "ui/common/MethodBoxes.h"
#include "ui/common/ParamFields.h"
#include "ui/common/PlaneCombos.h"
#include "ui/session/VaeSessionFile.h"

class QCheckBox;
class QGroupBox;
class QPushButton;
class QComboBox;
class QLabel;
class IntSpinBox;
class ElboView;
class GapView;
class LatentSpaceView;
class DataSpaceView;
class PictureView;
class QStackedWidget;

class NonlinearPage : public LabPageOf<fa::VaeLive, fa::VaeLiveSnapshot, fa::io::VaeSessionFiles> {
    Q_OBJECT
  public:
    explicit NonlinearPage(QWidget* parent = nullptr);

    /// The run the controls describe.
    fa::VaeLiveConfig config() const override;
    void setConfig(const fa::VaeLiveConfig& config) override;
    ElboView* elboView() const { return m_elbo; }
    GapView* gapView() const { return m_gaps; }
    LatentSpaceView* latentView() const { return m_latentView; }
    DataSpaceView* dataView() const { return m_data; }
    PictureView* pictureView() const { return m_pictures; }
    QCheckBox* methodBox(fa::VaeMethod method) const;

    std::vector<std::pair<QString, QWidget*>> charts() const override;
    bool exportCurves(const QString& csvPath) override; ///< the vae command's columns
    QWidget* parameterColumn() const override { return m_parameters; }
    bool openCsv(const QString& path) override;

  protected:
    void draw(const fa::VaeLiveSnapshot& s) override;
    void configRestored() override;

  private:
    static constexpr int kBuiltinSets = 11; ///< generated, UCI and picture sets, first in the list
    // The constructor's steps: the controls, the methods' boxes, the layout, the connections.
    void makeControls();
    QGroupBox* makeMethods();
    void layOut(QPushButton* open, QGroupBox* methods);
    void connectControls(QPushButton* open);
    void dataChanged();
    void fillChoices(const fa::VaeLiveSnapshot& s);
    void resetView();

    QComboBox *m_dataset, *m_activation, *m_noise, *m_encoderGradient, *m_precision, *m_viewMethod,
        *m_colourBy;
    PlanePicker m_axes; ///< view x, view y
    MethodBoxes<fa::VaeMethod> m_methods;
    ParamFields<fa::VaeLiveConfig> m_fields{fa::vaeLiveParams()}; ///< core/vae/VaeParams.h
    IntSpinBox *m_layers, *m_units;
    QWidget* m_parameters = nullptr; ///< the column presentation mode hides
    QAbstractSpinBox *m_dim, *m_trueLatent, *m_samples, *m_dataNoise, *m_noiseVariance;
    QLabel* m_summary;
    ElboView* m_elbo;
    GapView* m_gaps;
    LatentSpaceView* m_latentView;
    DataSpaceView* m_data;
    PictureView* m_pictures;
    QStackedWidget* m_dataSlot; ///< the data plane, or the pictures for a picture set
    std::vector<std::string> m_shownMethods;
    bool m_quiet = false;
    fa::NoiseKind m_linearNoise = fa::NoiseKind::Isotropic; ///< a session's, kept across restarts
};
