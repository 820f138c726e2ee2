#include "model.hpp"

nlohmann::json make_orders(int n) {
  nlohmann::json arr = nlohmann::json::array();
  for (int i = 0; i < n; i++) {
    nlohmann::json o;
    o["id"] = i;
    o["customer"] = "c" + std::to_string(i % 13);
    std::vector<double> amounts;
    for (int k = 0; k < i % 5 + 1; k++) amounts.push_back((i * 7 + k * 3) % 100 / 4.0);
    o["amounts"] = amounts;
    o["counts"] = {{"a", i % 3}, {"b", i % 7}, {"c", i % 11}};
    arr.push_back(o);
  }
  return arr;
}
