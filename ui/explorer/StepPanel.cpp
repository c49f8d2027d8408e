#include "ui/explorer/StepPanel.h"

#include "ui/common/MethodStyle.h"

#include <QLabel>
#include <QVBoxLayout>

namespace {
QString numbers(const fa::Vector& v, int max = 6) {
    QStringList parts;
    for (Eigen::Index i = 0; i < std::min<Eigen::Index>(v.size(), max); ++i)
        parts << QString::number(v[i], 'f', 3);
    if (v.size() > max)
        parts << "…";
    return "(" + parts.join(", ") + ")";
}
QString matrix(const fa::Matrix& m) {
    QStringList rows;
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        QStringList cells;
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            cells << QString::number(m(r, c), 'f', 3);
        rows << cells.join("  ");
    }
    return rows.join("<br>");
}
} // namespace

StepPanel::StepPanel(QWidget* parent) : QGroupBox("Last step", parent), m_body(new QLabel) {
    m_body->setTextFormat(Qt::RichText);
    m_body->setWordWrap(true);
    m_body->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_body);
    setToolTip("E-step for one observation x_t with d = x_t − θ̄_t:\n"
               "  Σ = (I + Fᵀ Ψ⁻¹ F)⁻¹,   m_t = Σ Fᵀ Ψ⁻¹ d\n"
               "Online EM then sets F = Ā H⁻¹, ψ = d²̄ − rowsum(F ⊙ Ā) from running averages;\n"
               "online SGA moves F and log ψ by η times the gradient of log N(x_t; θ̄, F Fᵀ + Ψ).");
    m_body->setText(
        "Press <b>Step</b> (→) to observe one sample and see what it does to each fit.");
}

QString StepPanel::text() const {
    return m_body->text();
}

void StepPanel::showSnapshot(const fa::ExplorerSnapshot& snap) {
    if (!snap.lastStep || snap.lastStep->t != snap.samples) {
        if (snap.samples == 0)
            m_body->setText(
                "Press <b>Step</b> (→) to observe one sample and see what it does to each fit.");
        return; // keep the last step's explanation while running
    }
    const fa::StepTrace& s = *snap.lastStep;
    QString html = QString("<b>t = %1</b><br>x<sub>t</sub> = %2").arg(s.t).arg(numbers(s.xHead));
    for (const auto& f : s.fits) {
        html += QString("<hr><b style='color:%1'>%2</b>")
                    .arg(colourFor(f.name).name(), displayName(f.name));
        if (!f.sigma.allFinite()) {
            html += "<br>diverged: no E-step";
            continue;
        }
        html += QString("<br>m<sub>t</sub> = %1").arg(numbers(f.m));
        if (f.sigma.rows() <= 4)
            html += QString("<br>Σ =<br><tt>%1</tt>").arg(matrix(f.sigma));
        else
            html += QString("<br>diag Σ = %1").arg(numbers(f.sigma.diagonal()));
        if (f.warmUp) {
            html +=
                f.name == "em"
                    ? "<br>warm-up: F and ψ stay fixed; the running statistics Ā, B̄, d²̄ accumulate"
                    : "<br>warm-up: F and ψ stay fixed; only the running mean moves";
            continue;
        }
        html += QString("<br>‖ΔF‖/‖F‖ = %1<br>‖Δψ‖ = %2 (largest: ψ<sub>%3</sub> %4%5)")
                    .arg(f.relFChange, 0, 'g', 3)
                    .arg(f.psiChange, 0, 'g', 3)
                    .arg(f.psiArgMax + 1)
                    .arg(f.psiMaxChange >= 0 ? "+" : "−")
                    .arg(std::abs(f.psiMaxChange), 0, 'g', 3);
    }
    m_body->setText(html);
}
