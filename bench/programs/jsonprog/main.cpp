#include "model.hpp"
#include <iostream>

int main() {
  nlohmann::json orders = make_orders(2000);
  std::string text = orders.dump();
  nlohmann::json back = nlohmann::json::parse(text);
  Stats s = summarize(decode(back));
  std::cout << encode(s).dump(2) << "\n";
  std::cout << "bytes " << text.size() << "\n";
  return 0;
}
