// A C++17 program of ours that uses the standard library only: std::regex, containers,
// algorithms, variant/any/optional/function and virtual classes, instantiated over several
// types and spread over four files, so that every file instantiates the same templates
// (identical functions for mergefn, and comdats the linker picks one copy of). It prints
// what it computes; the merged build must print the same.
#pragma once
#include <algorithm>
#include <any>
#include <deque>
#include <functional>
#include <iomanip>
#include <iostream>
#include <list>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

using Value = std::variant<long, double, std::string, std::vector<int>>;
std::string describe(const Value &v);
void regex_part(std::ostream &out);
void containers_part(std::ostream &out);
void shapes_part(std::ostream &out);

template <typename T> struct Stats {
  std::vector<T> xs;
  void add(T x) { xs.push_back(x); }
  T sum() const { return std::accumulate(xs.begin(), xs.end(), T{}); }
  T max() const { return xs.empty() ? T{} : *std::max_element(xs.begin(), xs.end()); }
  std::vector<T> sorted() const { auto v = xs; std::sort(v.begin(), v.end()); return v; }
};
