#pragma once
// What every window suite does first: QStandardPaths' test mode (the user's own settings and
// files are never touched) under an organisation name of the tests' own.
#include <QCoreApplication>
#include <QStandardPaths>

namespace fa::test {

inline void isolateSettings(const char* organisation = "FA Explorer tests") {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(organisation);
}

} // namespace fa::test
