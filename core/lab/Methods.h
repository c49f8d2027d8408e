#pragma once
// The method registry: every method a lab offers (and the references they are measured
// against), with the one name the CLI flags, CSV rows and session files use, the labels and
// the colour every view shows, and which labs offer it. The CLI's lists and the charts'
// legends read it; a new method is one entry here.
#include "core/lab/NameTable.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fa {

enum class Lab : unsigned { Explorer = 1, Posterior = 2, Neural = 4, Latent = 8, Nonlinear = 16 };

struct MethodInfo {
    std::string_view id;    ///< the CLI name, the CSV `method`/`algorithm` cell, the session key
    std::string_view label; ///< for people: check boxes, legends
    std::string_view shortLabel; ///< for crowded legends
    std::uint32_t rgb;           ///< 0xRRGGBB, the thesis figures' palette
    unsigned labs;               ///< Lab bits; 0 = a reference (true model, exact posterior)
    std::string_view tip;        ///< one line for tooltips
    bool offeredBy(Lab lab) const { return (labs & static_cast<unsigned>(lab)) != 0; }
};

/// Every entry, in the order labs list them.
const std::vector<MethodInfo>& methodRegistry();
/// The entry with this id, if any (the first one: an id is unique within a lab, and a lab
/// may reuse another lab's id for its own method, e.g. "em": online EM in the explorer, batch
/// EM in the latent-variable lab).
const MethodInfo* findMethod(std::string_view id);
/// The entry with this id that the lab offers, if any.
const MethodInfo* findMethod(std::string_view id, Lab lab);
/// Its short label in this lab, for status bars ("EM", "SWA-FA EM"); an unknown id as it is.
std::string methodShortLabel(std::string_view id, Lab lab);
/// The ids a lab offers, in registry order.
std::vector<std::string> methodIds(Lab lab);
/// "a, b, c": the ids a lab offers, for error messages.
std::string methodChoices(Lab lab);

/// A lab's method of this id: offered by the lab in the registry and named in its table.
template <class E, std::size_t N>
std::optional<E> labMethod(const Named<E> (&table)[N], std::string_view id, Lab lab) {
    return findMethod(id, lab) ? valueIn(table, id) : std::nullopt;
}

/// The methods of a lab's table that the registry offers, in registry order.
template <class E, std::size_t N> std::vector<E> labMethods(const Named<E> (&table)[N], Lab lab) {
    std::vector<E> all;
    for (const std::string& id : methodIds(lab))
        if (const auto m = valueIn(table, id))
            all.push_back(*m);
    return all;
}

} // namespace fa
