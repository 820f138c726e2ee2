#include "common.hpp"
struct Shape { virtual ~Shape() = default; virtual double area() const = 0; virtual std::string name() const = 0; };
struct Circle : Shape { double r; explicit Circle(double r) : r(r) {} double area() const override { return 3.14159 * r * r; } std::string name() const override { return "circle"; } };
struct Square : Shape { double s; explicit Square(double s) : s(s) {} double area() const override { return s * s; } std::string name() const override { return "square"; } };
struct Rect : Shape { double w, h; Rect(double w, double h) : w(w), h(h) {} double area() const override { return w * h; } std::string name() const override { return "rect"; } };
template <typename T> struct Box { T value; std::function<T(T)> f; T apply() const { return f(value); } };
std::string describe(const Value &v) {
  return std::visit([](auto &&x) -> std::string {
    using T = std::decay_t<decltype(x)>;
    if constexpr (std::is_same_v<T, std::string>) return "str:" + x;
    else if constexpr (std::is_same_v<T, std::vector<int>>) return "vec:" + std::to_string(x.size());
    else { std::ostringstream o; o << std::fixed << std::setprecision(2) << x; return "num:" + o.str(); }
  }, v);
}
void shapes_part(std::ostream &out) {
  std::vector<std::unique_ptr<Shape>> shapes;
  for (int i = 1; i <= 6; ++i) {
    if (i % 3 == 0) shapes.push_back(std::make_unique<Circle>(i));
    else if (i % 3 == 1) shapes.push_back(std::make_unique<Square>(i));
    else shapes.push_back(std::make_unique<Rect>(i, i + 1));
  }
  std::sort(shapes.begin(), shapes.end(), [](auto &a, auto &b) { return a->area() < b->area(); });
  for (auto &s : shapes) out << s->name() << ':' << std::fixed << std::setprecision(3) << s->area() << ' ';
  out << '\n';
  std::shared_ptr<Shape> sp = std::make_shared<Circle>(2); std::weak_ptr<Shape> wp = sp;
  out << sp.use_count() << ' ' << (wp.lock() ? wp.lock()->name() : "gone") << '\n';
  Box<int> bi{3, [](int x) { return x * x; }}; Box<long> bl{4, [](long x) { return x + 1; }}; Box<double> bd{1.5, [](double x) { return x * 2; }};
  out << bi.apply() << ' ' << bl.apply() << ' ' << bd.apply() << '\n';
  std::map<std::string, std::function<double(double, double)>> ops{{"+", std::plus<double>()}, {"-", std::minus<double>()}, {"*", std::multiplies<double>()}};
  for (auto &[k, f] : ops) out << k << '=' << f(6, 3) << ' ';
  out << '\n';
  auto t = std::make_tuple(1, std::string("two"), 3.0);
  out << std::get<0>(t) << std::get<1>(t) << std::get<2>(t) << '\n';
}
