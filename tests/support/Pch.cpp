// An empty file: the library built from it only carries the precompiled headers the test
// suites reuse (tests/CMakeLists.txt).
