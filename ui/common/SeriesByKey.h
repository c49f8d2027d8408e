#pragma once
// Series made on demand, one per key (a method's or fitter's id), each added to its chart on the
// chart's two axes when first asked for: the explorer's error charts and the posterior lab's
// curves and comparisons.
#include <QString>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <map>
#include <string>

template <class Series> class SeriesByKey {
  public:
    /// The key's series; made by make() and added to the chart on x and y if it has none yet.
    template <class Make>
    Series* get(QChart* chart, QAbstractAxis* x, QAbstractAxis* y, const std::string& key,
                Make make) {
        if (auto it = m_series.find(key); it != m_series.end())
            return it->second;
        Series* s = make();
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
        return m_series[key] = s;
    }
    /// The key's series, or nullptr (tests, export).
    Series* find(const QString& key) const {
        const auto it = m_series.find(key.toStdString());
        return it == m_series.end() ? nullptr : it->second;
    }
    /// Every series emptied (a method left out of a run shows nothing).
    void clearAll() {
        for (auto& [key, s] : m_series)
            s->clear();
    }
    std::map<std::string, Series*>& all() { return m_series; }

  private:
    std::map<std::string, Series*> m_series;
};
