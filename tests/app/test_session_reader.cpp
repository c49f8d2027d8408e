// Issue 25: a session is read only from a regular file. `faexplorer --session FIFO` waited for
// ever with no writer, and with an endless writer read until std::bad_alloc ended the program
// (the 1 MiB cap looked at the size, 0 for a pipe). Now a FIFO, a device and a folder are refused
// at once, naming the path, and a file that grows past the cap while being read is refused.
#include "ui/session/SessionFile.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

class TestSessionReader : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    /// readSessionFile's message for path, or "read N bytes" when it accepted it; and how long
    /// it took.
    static QString attempt(const QString& path, double* seconds) {
        const auto start = std::chrono::steady_clock::now();
        QString result;
        try {
            result = QString("read %1 bytes").arg(fa::io::readSessionFile(path).size());
        } catch (const fa::io::SessionError& e) {
            result = QString::fromUtf8(e.what());
        }
        *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return result;
    }

  private slots:
    void aFifoWithoutAWriterIsRefusedAtOnce() {
        const QString fifo = m_dir.filePath("idle.fifo");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        double seconds = 0;
        const QString why = attempt(fifo, &seconds);
        QVERIFY2(why.contains("not a regular file"), qPrintable(why));
        QVERIFY(why.contains(fifo));
        QVERIFY(seconds < 2.0);
    }
    void aFifoWithAnEndlessWriterIsRefused() {
        const QString fifo = m_dir.filePath("endless.fifo");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        std::atomic<bool> stop{false};
        std::thread writer([&] { // writes until told to stop (or the reader goes away)
            const int fd = ::open(fifo.toLocal8Bit().constData(), O_RDWR);
            const std::string chunk(4096, ' ');
            while (fd >= 0 && !stop.load()) {
                const int flags = ::fcntl(fd, F_GETFL);
                ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
                if (::write(fd, chunk.data(), chunk.size()) < 0)
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            if (fd >= 0)
                ::close(fd);
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        double seconds = 0;
        const QString why = attempt(fifo, &seconds);
        stop = true;
        writer.join();
        QVERIFY2(why.contains("not a regular file"), qPrintable(why));
        QVERIFY(seconds < 2.0);
    }
    void aDeviceAndAFolderAreRefused() {
        double seconds = 0;
        QString why = attempt("/dev/zero", &seconds);
        QVERIFY2(why.contains("not a regular file"), qPrintable(why));
        QVERIFY(seconds < 2.0);
        why = attempt(m_dir.path(), &seconds);
        QVERIFY2(why.contains("folder"), qPrintable(why));
        why = attempt(m_dir.filePath("missing.json"), &seconds);
        QVERIFY2(why.contains("cannot open"), qPrintable(why));
    }
    void aRegularFileIsReadUpToTheCap() {
        const QString small = m_dir.filePath("small.json"), big = m_dir.filePath("big.json");
        QFile f(small);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{}");
        f.close();
        double seconds = 0;
        QCOMPARE(attempt(small, &seconds), QString("read 2 bytes"));
        QFile g(big);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write(QByteArray((1 << 20) + 1, ' '));
        g.close();
        QVERIFY(attempt(big, &seconds).contains("too large to be a session"));
        // A symbolic link to a session is followed.
        QVERIFY(QFile::link(small, m_dir.filePath("link.json")));
        QCOMPARE(attempt(m_dir.filePath("link.json"), &seconds), QString("read 2 bytes"));
    }
};

QTEST_GUILESS_MAIN(TestSessionReader)
#include "test_session_reader.moc"
