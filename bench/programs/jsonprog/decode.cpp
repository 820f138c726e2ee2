#include "model.hpp"

std::vector<Order> decode(const nlohmann::json &j) {
  std::vector<Order> out;
  for (const auto &o : j) {
    Order ord;
    ord.id = o.at("id").get<int>();
    ord.customer = o.at("customer").get<std::string>();
    ord.amounts = o.at("amounts").get<std::vector<double>>();
    ord.counts = o.at("counts").get<std::map<std::string, int>>();
    out.push_back(std::move(ord));
  }
  return out;
}
