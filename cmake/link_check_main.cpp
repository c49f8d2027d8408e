// The main of every link check (cmake/LinkCheck.cmake): it calls nothing. The library under test
// is linked whole, so each of its objects must find what it calls in the libraries it declares.
int main() {
    return 0;
}
