#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

struct Order {
  int id;
  std::string customer;
  std::vector<double> amounts;
  std::map<std::string, int> counts;
};

struct Stats {
  long long orders = 0;
  double total = 0;
  std::map<std::string, double> by_customer;
};

nlohmann::json make_orders(int n);
std::vector<Order> decode(const nlohmann::json &j);
Stats summarize(const std::vector<Order> &orders);
nlohmann::json encode(const Stats &s);
