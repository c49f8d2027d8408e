#include "ui/shell/PresetCaption.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextDocumentFragment>

PresetCaption::PresetCaption(QWidget* parent) : QFrame(parent), m_label(new QLabel) {
    setObjectName("presetCaption");
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::ToolTipBase);
    setForegroundRole(QPalette::ToolTipText);
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::RichText);
    m_label->setForegroundRole(QPalette::ToolTipText);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* hide = new QPushButton("Hide");
    hide->setToolTip("Put the caption away (it comes back with the next preset)");
    connect(hide, &QPushButton::clicked, this, &PresetCaption::dismiss);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(8, 4, 8, 4);
    row->addWidget(m_label, 1);
    row->addWidget(hide, 0, Qt::AlignTop);
    QFrame::hide();
}

void PresetCaption::setPreset(const fa::io::Preset& preset) {
    m_preset = preset;
    m_dismissed = false;
    const QString source =
        preset.source.isEmpty() ? QString() : " — " + preset.source.toHtmlEscaped();
    m_label->setText(
        QString("<b>%1</b>%2<br>%3")
            .arg(preset.title.toHtmlEscaped(), source, preset.caption.toHtmlEscaped()));
    setToolTip(QString("Preset '%1' (%2)").arg(preset.name, preset.path));
}

void PresetCaption::followLab(const QString& lab) {
    setVisible(!m_dismissed && lab == m_preset.lab);
}

void PresetCaption::dismiss() {
    m_dismissed = true;
    QFrame::hide();
}

QString PresetCaption::text() const {
    return QTextDocumentFragment::fromHtml(m_label->text()).toPlainText();
}
