#pragma once
// Work that another thread may throw away mid-way (the window closing in the middle of a long
// epoch): the owner raises a flag; the work looks at it between its pieces (mini-batches) and
// returns at once, leaving a state nobody reads. The flag is only ever raised for work about to
// be destroyed, so a run that goes on never sees it and its numbers do not depend on it.
#include <atomic>

namespace fa {

class Abandonable {
  public:
    /// The flag to watch (nullptr: never abandoned); it must outlive this object.
    void abandonOn(const std::atomic<bool>* flag) { m_abandon = flag; }

  protected:
    bool abandoned() const { return m_abandon && m_abandon->load(std::memory_order_relaxed); }

  private:
    const std::atomic<bool>* m_abandon = nullptr;
};

} // namespace fa
