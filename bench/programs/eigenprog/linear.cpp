// Eigen's fixed-size matrices of four scalar types and several sizes, and dynamic ones: the
// template instantiations of a numeric C++ program, many of them alike.
#include <Eigen/Dense>
#include <sstream>
#include <string>

template <typename T, int N> double solve_and_mix(int seed) {
  Eigen::Matrix<T, N, N> m;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      m(i, j) = T((i * 7 + j * 3 + seed) % 11) + (i == j ? T(N * 4) : T(0));
  Eigen::Matrix<T, N, 1> v = Eigen::Matrix<T, N, 1>::LinSpaced(N, T(1), T(N));
  Eigen::Matrix<T, N, 1> x = m.partialPivLu().solve(v);
  Eigen::Matrix<T, N, N> p = m * m.transpose() + m.inverse();
  return double(x.sum() + p.trace() + m.determinant() / T(1000));
}

template <typename T, int N> long integer_powers(int seed) {
  Eigen::Matrix<T, N, N> m = Eigen::Matrix<T, N, N>::Constant(T(seed % 5 + 1));
  m.diagonal().setConstant(T(seed));
  Eigen::Matrix<T, N, N> q = m * m * m;
  return long(q.sum()) + long(q.maxCoeff()) - long(q.minCoeff());
}

std::string linear_part(int seed) {
  std::ostringstream out;
  out.precision(10);
  out << solve_and_mix<double, 2>(seed) << ' ' << solve_and_mix<double, 3>(seed) << ' '
      << solve_and_mix<double, 4>(seed) << ' ' << solve_and_mix<float, 2>(seed) << ' '
      << solve_and_mix<float, 3>(seed) << ' ' << solve_and_mix<float, 4>(seed) << '\n';
  out << integer_powers<int, 2>(seed) << ' ' << integer_powers<int, 3>(seed) << ' '
      << integer_powers<long, 3>(seed) << ' ' << integer_powers<long, 4>(seed) << ' '
      << integer_powers<short, 3>(seed) << '\n';
  Eigen::MatrixXd d = Eigen::MatrixXd::Identity(6, 6) * seed + Eigen::MatrixXd::Constant(6, 6, 0.5);
  Eigen::VectorXd y = d.colPivHouseholderQr().solve(Eigen::VectorXd::Ones(6));
  Eigen::VectorXf z = d.cast<float>().ldlt().solve(Eigen::VectorXf::LinSpaced(6, 1.f, 6.f));
  out << y.norm() << ' ' << z.squaredNorm() << ' ' << d.rowwise().sum().maxCoeff() << '\n';
  return out.str();
}
