#include "ui/shell/PresetCaption.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTextDocumentFragment>
#include <algorithm>

PresetCaption::PresetCaption(QWidget* parent)
    : QFrame(parent), m_label(new QLabel), m_scroll(new QScrollArea) {
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
    m_scroll->setWidget(m_label);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->viewport()->setAutoFillBackground(false); // the caption's colour shows through
    m_label->setAutoFillBackground(false);
    row->addWidget(m_scroll, 1);
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

void PresetCaption::setMaxTextHeight(int pixels) {
    m_maxTextHeight = std::max(0, pixels);
    fitHeight();
}

void PresetCaption::fitHeight() {
    // The text's height at the width it has, capped; a scroll bar, when it comes, narrows it.
    const int bar = m_scroll->verticalScrollBar()->sizeHint().width();
    const int width = std::max(1, m_scroll->width());
    int height = m_label->heightForWidth(width);
    if (m_maxTextHeight > 0 && height > m_maxTextHeight)
        height = std::min(m_maxTextHeight, m_label->heightForWidth(std::max(1, width - bar)));
    if (height > 0 && m_scroll->height() != height)
        m_scroll->setFixedHeight(height);
}

void PresetCaption::resizeEvent(QResizeEvent* event) {
    QFrame::resizeEvent(event);
    fitHeight();
}

void PresetCaption::changeEvent(QEvent* event) {
    QFrame::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fitHeight();
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
