! Fortran (flang): procedures of a module with assumed-shape arrays (descriptors), array
! expressions, internal writes; two pairs of them alike.
module kinds
  implicit none
contains
  function sum_i4(a) result(s)
    integer(4), intent(in) :: a(:)
    integer(4) :: s
    integer :: i
    s = 0
    do i = 1, size(a)
      s = s + a(i)
    end do
  end function
  function sum_i4b(a) result(s)
    integer(4), intent(in) :: a(:)
    integer(4) :: s
    integer :: i
    s = 0
    do i = 1, size(a)
      s = s + a(i)
    end do
  end function
  function dot(a, b) result(s)
    real(8), intent(in) :: a(:), b(:)
    real(8) :: s
    s = sum(a * b)
  end function
  subroutine scale(a, k)
    real(8), intent(inout) :: a(:)
    real(8), intent(in) :: k
    a = a * k
  end subroutine
  subroutine scale2(a, k)
    real(8), intent(inout) :: a(:)
    real(8), intent(in) :: k
    a = a * k
  end subroutine
end module

program main
  use kinds
  implicit none
  integer(4) :: v(10)
  real(8) :: x(5), y(5)
  character(len=32) :: label
  integer :: i
  v = [(i, i = 1, 10)]
  x = [(real(i, 8), i = 1, 5)]
  y = 2.0d0
  call scale(x, 3.0d0)
  call scale2(y, 0.5d0)
  write (label, '(A,I0)') 'n=', size(v)
  print *, trim(label), sum_i4(v), sum_i4b(v), dot(x, y)
end program
