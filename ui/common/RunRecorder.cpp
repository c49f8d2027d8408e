#include "ui/common/RunRecorder.h"

#include <QPainter>

#include "ui/common/LabPage.h"
#include "ui/common/WidgetExport.h"

#include <QCoreApplication>
#include <QDir>
#include <QGraphicsLayout>
#include <QTimer>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <cmath>

RunRecorder::RunRecorder(LabPage* page, RecordOptions options, QObject* parent)
    : QObject(parent), m_page(page), m_options(std::move(options)),
      m_positions(framePositions(m_options.until, m_options.frames, m_options.logarithmic)) {}

std::vector<long> RunRecorder::framePositions(long until, int frames, bool logarithmic) {
    std::vector<long> positions;
    if (until < 1 || frames < 1)
        return positions;
    for (int k = 1; k <= frames; ++k) {
        const double f = static_cast<double>(k) / frames;
        const long p = logarithmic ? std::lround(std::pow(static_cast<double>(until), f))
                                   : std::lround(static_cast<double>(until) * f);
        if (p >= 1 && (positions.empty() || p > positions.back()))
            positions.push_back(p);
    }
    if (positions.empty() || positions.back() != until)
        positions.push_back(until);
    return positions;
}

void RunRecorder::start() {
    if (!m_page || m_positions.empty()) {
        finish(false, "nothing to record: the run has no position to reach");
        return;
    }
    settleLayouts(m_page);
    const QImage first = frameImage();
    if (!m_gif.open(m_options.path, first.size(), m_options.delayMs)) {
        finish(false, m_gif.error());
        return;
    }
    m_reached = connect(m_page, &LabPage::reached, this, [this] { whenSettled(); });
    connect(m_page, &QObject::destroyed, this,
            [this] { finish(false, "the lab was closed while recording"); });
    m_error = connect(m_page, &LabPage::runError, this,
                      [this](const QString& why) { finish(false, "the run stopped: " + why); });
    m_page->restart(); // from its start, with its seeds and live changes
    next();
}

void RunRecorder::cancel() {
    // At once, not after the next frame: the window is usable again, and a pause or a reset
    // there would leave that frame's target unreached and the file never finished.
    m_cancelled = true;
    finish(false, QString("recording stopped after %1 frames").arg(m_gif.frames()));
}

void RunRecorder::next() {
    if (m_done)
        return;
    if (m_cancelled) {
        finish(false, QString("recording cancelled after %1 frames").arg(m_gif.frames()));
        return;
    }
    if (m_next == m_positions.size()) {
        finish(true, QString("Recorded %1 frames to %2")
                         .arg(m_gif.frames())
                         .arg(QDir::toNativeSeparators(m_options.path)));
        return;
    }
    m_page->runUntil(m_positions[m_next]);
}

void RunRecorder::whenSettled() {
    if (m_done || !m_page)
        return;
    // Background work for this position first (a refit at a decade): its snapshot comes when it
    // is in, queued before the check below returns, and is drawn by capture().
    if (m_page->backgroundPending()) {
        QTimer::singleShot(20, this, &RunRecorder::whenSettled);
        return;
    }
    QTimer::singleShot(0, this, &RunRecorder::capture);
}

QImage RunRecorder::frameImage() const {
    const QImage page = widget_export::render(m_page, m_options.width);
    if (!m_options.header || !m_options.header->isVisible())
        return page;
    // The header at the page's width (its text wraps as it would in a window that wide).
    QWidget* header = m_options.header;
    const int pageWidth = m_page->width();
    const QSize was = header->size();
    header->resize(pageWidth, header->heightForWidth(pageWidth) > 0
                                  ? header->heightForWidth(pageWidth)
                                  : header->height());
    const QImage top = widget_export::render(header, page.width());
    header->resize(was);
    QImage frame(page.width(), top.height() + page.height(), QImage::Format_ARGB32_Premultiplied);
    frame.fill(m_page->palette().color(QPalette::Window));
    QPainter painter(&frame);
    painter.drawImage(0, 0, top);
    painter.drawImage(0, top.height(), page);
    return frame;
}

void RunRecorder::capture() {
    if (m_done || !m_page)
        return;
    m_page->redrawNow();
    settleLayouts(m_page);
    QImage frame;
    try {
        frame = frameImage();
    } catch (const std::bad_alloc&) {
        finish(false, "not enough memory for a frame this wide");
        return;
    }
    if (frame.size() != m_gif.size()) // the window was resized while recording
        frame = frame.scaled(m_gif.size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    if (!m_gif.addFrame(frame)) {
        finish(false, m_gif.error());
        return;
    }
    ++m_next;
    emit progress(static_cast<int>(m_next), static_cast<int>(m_positions.size()));
    next();
}

void RunRecorder::settleLayouts(QWidget* page) {
    // The charts lay themselves out again (a legend entry came or went, wider tick labels, a
    // caption appeared) in posted events: let them, so the frame shows this snapshot's layout,
    // not the one before (tick labels elided to "..." for one frame).
    for (int round = 0; round < 3; ++round) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        if (!page)
            continue;
        for (QChartView* view : page->findChildren<QChartView*>())
            if (QGraphicsLayout* layout = view->chart() ? view->chart()->layout() : nullptr) {
                layout->invalidate();
                layout->activate();
            }
    }
}

void RunRecorder::finish(bool ok, const QString& message) {
    if (m_done)
        return;
    m_done = true;
    disconnect(m_reached);
    disconnect(m_error);
    // A finished or stopped recording is put in place (stopped: the frames so far); a failed one
    // is dropped, and the file at the path keeps what it held.
    if (!ok && !m_cancelled) {
        m_gif.discard();
        emit finished(false, message);
        return;
    }
    if (!m_gif.close()) {
        emit finished(false, m_gif.error());
        return;
    }
    emit finished(ok, message);
}
