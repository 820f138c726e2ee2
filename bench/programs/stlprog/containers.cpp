#include "common.hpp"
template <typename C> void dump(std::ostream &out, const C &c) { for (const auto &x : c) out << x << ' '; out << '\n'; }
void containers_part(std::ostream &out) {
  Stats<int> si; Stats<long> sl; Stats<double> sd; Stats<unsigned> su; Stats<short> sh;
  for (int i = 0; i < 100; ++i) { si.add((i * 37) % 101); sl.add(i * 1000003L % 97); sd.add(i * 0.5); su.add(i * 7u % 13); sh.add(short(i % 9)); }
  out << si.sum() << ' ' << sl.sum() << ' ' << sd.sum() << ' ' << su.sum() << ' ' << sh.sum() << '\n';
  out << si.max() << ' ' << sl.max() << ' ' << sd.max() << ' ' << su.max() << ' ' << sh.max() << '\n';
  auto sorted = si.sorted();
  dump(out, std::vector<int>(sorted.begin(), sorted.begin() + 10));
  std::unordered_map<std::string, int> um; std::unordered_map<int, std::string> mu;
  for (int i = 0; i < 50; ++i) { um["k" + std::to_string(i)] = i; mu[i] = "v" + std::to_string(i * i); }
  std::map<int, std::string> ordered(mu.begin(), mu.end());
  out << um.size() << ' ' << um["k7"] << ' ' << ordered.rbegin()->second << '\n';
  std::set<std::string> names{"zeta", "eta", "theta", "iota"}; dump(out, names);
  std::multiset<int> ms{5, 3, 5, 1, 3}; dump(out, ms);
  std::deque<long> dq; for (long i = 0; i < 10; ++i) { if (i % 2) dq.push_front(i); else dq.push_back(i); } dump(out, dq);
  std::list<double> li{3.5, 1.25, 2.0}; li.sort(); dump(out, li);
  std::unordered_set<long> us{1, 2, 3, 2, 1}; out << us.size() << '\n';
  std::vector<std::pair<std::string, int>> pv; for (auto &[k, v] : um) pv.emplace_back(k, v);
  std::sort(pv.begin(), pv.end(), [](auto &a, auto &b) { return a.second < b.second; });
  out << pv.front().first << ' ' << pv.back().first << '\n';
  std::vector<Value> vals{1L, 2.5, std::string("three"), std::vector<int>{4, 5}};
  for (auto &v : vals) out << describe(v) << ' ';
  out << '\n';
  std::vector<std::any> anys{1, std::string("s"), 3.0};
  for (auto &a : anys) out << (a.type() == typeid(int) ? "int" : a.type() == typeid(double) ? "double" : "other") << ' ';
  out << '\n';
  std::optional<int> oi; out << oi.value_or(-1) << ' ' << std::optional<long>(5).value() << '\n';
  try { std::vector<int>{}.at(3); } catch (const std::out_of_range &e) { out << "out_of_range\n"; }
  try { std::get<double>(vals[0]); } catch (const std::bad_variant_access &) { out << "bad_variant_access\n"; }
}
