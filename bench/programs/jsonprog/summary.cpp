#include "model.hpp"
#include <algorithm>
#include <numeric>

Stats summarize(const std::vector<Order> &orders) {
  Stats s;
  for (const auto &o : orders) {
    s.orders++;
    double sum = std::accumulate(o.amounts.begin(), o.amounts.end(), 0.0);
    for (const auto &[k, v] : o.counts) sum += v * (k == "a" ? 1.5 : 0.25);
    s.total += sum;
    s.by_customer[o.customer] += sum;
  }
  return s;
}

nlohmann::json encode(const Stats &s) {
  nlohmann::json j;
  j["orders"] = s.orders;
  j["total"] = s.total;
  std::vector<std::pair<std::string, double>> top(s.by_customer.begin(), s.by_customer.end());
  std::sort(top.begin(), top.end(), [](auto &a, auto &b) { return a.second > b.second || (a.second == b.second && a.first < b.first); });
  for (auto &[k, v] : top) j["customers"].push_back({{"name", k}, {"sum", v}});
  return j;
}
