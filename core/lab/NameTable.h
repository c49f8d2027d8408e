#pragma once
// One table per enumeration of the words the CLI, the CSV files and the sessions write for it
// (methods, models, priors, noise kinds): the name of a value, the value of a name, and the
// list of names an error message offers, all read from the same table.
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fa {

template <class E> struct Named {
    E value;
    const char* name;
};

/// The table's word for value; "?" for a value the table lacks.
template <class E, std::size_t N> std::string nameIn(const Named<E> (&table)[N], E value) {
    for (const Named<E>& n : table)
        if (n.value == value)
            return n.name;
    return "?";
}

/// The value whose word is name, if any.
template <class E, std::size_t N>
std::optional<E> valueIn(const Named<E> (&table)[N], std::string_view name) {
    for (const Named<E>& n : table)
        if (name == n.name)
            return n.value;
    return std::nullopt;
}

/// Every value, in the table's order.
template <class E, std::size_t N> std::vector<E> valuesIn(const Named<E> (&table)[N]) {
    std::vector<E> out;
    for (const Named<E>& n : table)
        out.push_back(n.value);
    return out;
}

/// "a, b or c": the words, for an error message.
template <class E, std::size_t N> std::string wordsIn(const Named<E> (&table)[N]) {
    std::string out;
    for (std::size_t i = 0; i < N; ++i)
        out += (i == 0 ? "" : i + 1 == N ? " or " : ", ") + std::string(table[i].name);
    return out;
}

/// valueIn, or std::invalid_argument "unknown WHAT 'name' (use a, b or c)".
template <class E, std::size_t N>
E requireIn(const Named<E> (&table)[N], const std::string& name, const char* what) {
    if (const auto value = valueIn(table, name))
        return *value;
    throw std::invalid_argument("unknown " + std::string(what) + " '" + name + "' (use " +
                                wordsIn(table) + ")");
}

} // namespace fa
