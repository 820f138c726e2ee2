; ModuleID = 'examples/templates.cpp'
source_filename = "examples/templates.cpp"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.Stack = type <{ [16 x i64], i32, [4 x i8] }>
%struct.Stack.0 = type <{ [16 x i64], i32, [4 x i8] }>
%struct.Stack.2 = type { [16 x i32], i32 }
%struct.Stack.3 = type { [16 x i32], i32 }

$_Z3runIlET_i = comdat any

$_Z3runImET_i = comdat any

$_Z3runIiET_i = comdat any

$_Z3runIjET_i = comdat any

$_ZN5StackIlEC2Ev = comdat any

$_ZN5StackIlE4pushEl = comdat any

$_ZNK5StackIlE3sumEv = comdat any

$_ZN5StackIlE3popEv = comdat any

$_ZN5StackImEC2Ev = comdat any

$_ZN5StackImE4pushEm = comdat any

$_ZNK5StackImE3sumEv = comdat any

$_ZN5StackImE3popEv = comdat any

$_ZN5StackIiEC2Ev = comdat any

$_ZN5StackIiE4pushEi = comdat any

$_ZNK5StackIiE3sumEv = comdat any

$_ZN5StackIiE3popEv = comdat any

$_ZN5StackIjEC2Ev = comdat any

$_ZN5StackIjE4pushEj = comdat any

$_ZNK5StackIjE3sumEv = comdat any

$_ZN5StackIjE3popEv = comdat any

@.str = private unnamed_addr constant [19 x i8] c"%ld %lu %ld %d %u\0A\00", align 1

; Function Attrs: mustprogress noinline norecurse optnone uwtable
define dso_local noundef i32 @main(i32 noundef %0, ptr noundef %1) #0 {
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca ptr, align 8
  %6 = alloca i64, align 8
  %7 = alloca i64, align 8
  %8 = alloca i64, align 8
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  store i32 0, ptr %3, align 4
  store i32 %0, ptr %4, align 4
  store ptr %1, ptr %5, align 8
  %11 = load i32, ptr %4, align 4
  %12 = add nsw i32 %11, 5
  %13 = call noundef i64 @_Z3runIlET_i(i32 noundef %12)
  store i64 %13, ptr %6, align 8
  %14 = load i32, ptr %4, align 4
  %15 = add nsw i32 %14, 6
  %16 = call noundef i64 @_Z3runImET_i(i32 noundef %15)
  store i64 %16, ptr %7, align 8
  %17 = load i32, ptr %4, align 4
  %18 = add nsw i32 %17, 7
  %19 = call noundef i64 @_Z3runIlET_i(i32 noundef %18)
  store i64 %19, ptr %8, align 8
  %20 = load i32, ptr %4, align 4
  %21 = add nsw i32 %20, 8
  %22 = call noundef i32 @_Z3runIiET_i(i32 noundef %21)
  store i32 %22, ptr %9, align 4
  %23 = load i32, ptr %4, align 4
  %24 = add nsw i32 %23, 9
  %25 = call noundef i32 @_Z3runIjET_i(i32 noundef %24)
  store i32 %25, ptr %10, align 4
  %26 = load i64, ptr %6, align 8
  %27 = load i64, ptr %7, align 8
  %28 = load i64, ptr %8, align 8
  %29 = load i32, ptr %9, align 4
  %30 = load i32, ptr %10, align 4
  %31 = call i32 (ptr, ...) @printf(ptr noundef @.str, i64 noundef %26, i64 noundef %27, i64 noundef %28, i32 noundef %29, i32 noundef %30)
  ret i32 0
}

; Function Attrs: mustprogress noinline optnone uwtable
define linkonce_odr dso_local noundef i64 @_Z3runIlET_i(i32 noundef %0) #1 comdat {
  %2 = alloca i32, align 4
  %3 = alloca %struct.Stack, align 8
  %4 = alloca i32, align 4
  %5 = alloca i64, align 8
  store i32 %0, ptr %2, align 4
  call void @_ZN5StackIlEC2Ev(ptr noundef nonnull align 8 dereferenceable(132) %3) #4
  store i32 0, ptr %4, align 4
  br label %6

6:                                                ; preds = %14, %1
  %7 = load i32, ptr %4, align 4
  %8 = load i32, ptr %2, align 4
  %9 = icmp slt i32 %7, %8
  br i1 %9, label %10, label %17

10:                                               ; preds = %6
  %11 = load i32, ptr %4, align 4
  %12 = mul nsw i32 %11, 3
  %13 = sext i32 %12 to i64
  call void @_ZN5StackIlE4pushEl(ptr noundef nonnull align 8 dereferenceable(132) %3, i64 noundef %13)
  br label %14

14:                                               ; preds = %10
  %15 = load i32, ptr %4, align 4
  %16 = add nsw i32 %15, 1
  store i32 %16, ptr %4, align 4
  br label %6, !llvm.loop !6

17:                                               ; preds = %6
  %18 = call noundef i64 @_ZNK5StackIlE3sumEv(ptr noundef nonnull align 8 dereferenceable(132) %3)
  store i64 %18, ptr %5, align 8
  %19 = call noundef i64 @_ZN5StackIlE3popEv(ptr noundef nonnull align 8 dereferenceable(132) %3)
  %20 = load i64, ptr %5, align 8
  %21 = call noundef i64 @_ZN5StackIlE3popEv(ptr noundef nonnull align 8 dereferenceable(132) %3)
  %22 = add nsw i64 %20, %21
  ret i64 %22
}

; Function Attrs: mustprogress noinline optnone uwtable
define linkonce_odr dso_local noundef i64 @_Z3runImET_i(i32 noundef %0) #1 comdat {
  %2 = alloca i32, align 4
  %3 = alloca %struct.Stack.0, align 8
  %4 = alloca i32, align 4
  %5 = alloca i64, align 8
  store i32 %0, ptr %2, align 4
  call void @_ZN5StackImEC2Ev(ptr noundef nonnull align 8 dereferenceable(132) %3) #4
  store i32 0, ptr %4, align 4
  br label %6

6:                                                ; preds = %14, %1
  %7 = load i32, ptr %4, align 4
  %8 = load i32, ptr %2, align 4
  %9 = icmp slt i32 %7, %8
  br i1 %9, label %10, label %17

10:                                               ; preds = %6
  %11 = load i32, ptr %4, align 4
  %12 = mul nsw i32 %11, 3
  %13 = sext i32 %12 to i64
  call void @_ZN5StackImE4pushEm(ptr noundef nonnull align 8 dereferenceable(132) %3, i64 noundef %13)
  br label %14

14:                                               ; preds = %10
  %15 = load i32, ptr %4, align 4
  %16 = add nsw i32 %15, 1
  store i32 %16, ptr %4, align 4
  br label %6, !llvm.loop !8

17:                                               ; preds = %6
  %18 = call noundef i64 @_ZNK5StackImE3sumEv(ptr noundef nonnull align 8 dereferenceable(132) %3)
  store i64 %18, ptr %5, align 8
  %19 = call noundef i64 @_ZN5StackImE3popEv(ptr noundef nonnull align 8 dereferenceable(132) %3)
  %20 = load i64, ptr %5, align 8
  %21 = call noundef i64 @_ZN5StackImE3popEv(ptr noundef nonnull align 8 dereferenceable(132) %3)
  %22 = add i64 %20, %21
  ret i64 %22
}

; Function Attrs: mustprogress noinline optnone uwtable
define linkonce_odr dso_local noundef i32 @_Z3runIiET_i(i32 noundef %0) #1 comdat {
  %2 = alloca i32, align 4
  %3 = alloca %struct.Stack.2, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  store i32 %0, ptr %2, align 4
  call void @_ZN5StackIiEC2Ev(ptr noundef nonnull align 4 dereferenceable(68) %3) #4
  store i32 0, ptr %4, align 4
  br label %6

6:                                                ; preds = %13, %1
  %7 = load i32, ptr %4, align 4
  %8 = load i32, ptr %2, align 4
  %9 = icmp slt i32 %7, %8
  br i1 %9, label %10, label %16

10:                                               ; preds = %6
  %11 = load i32, ptr %4, align 4
  %12 = mul nsw i32 %11, 3
  call void @_ZN5StackIiE4pushEi(ptr noundef nonnull align 4 dereferenceable(68) %3, i32 noundef %12)
  br label %13

13:                                               ; preds = %10
  %14 = load i32, ptr %4, align 4
  %15 = add nsw i32 %14, 1
  store i32 %15, ptr %4, align 4
  br label %6, !llvm.loop !9

16:                                               ; preds = %6
  %17 = call noundef i32 @_ZNK5StackIiE3sumEv(ptr noundef nonnull align 4 dereferenceable(68) %3)
  store i32 %17, ptr %5, align 4
  %18 = call noundef i32 @_ZN5StackIiE3popEv(ptr noundef nonnull align 4 dereferenceable(68) %3)
  %19 = load i32, ptr %5, align 4
  %20 = call noundef i32 @_ZN5StackIiE3popEv(ptr noundef nonnull align 4 dereferenceable(68) %3)
  %21 = add nsw i32 %19, %20
  ret i32 %21
}

; Function Attrs: mustprogress noinline optnone uwtable
define linkonce_odr dso_local noundef i32 @_Z3runIjET_i(i32 noundef %0) #1 comdat {
  %2 = alloca i32, align 4
  %3 = alloca %struct.Stack.3, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  store i32 %0, ptr %2, align 4
  call void @_ZN5StackIjEC2Ev(ptr noundef nonnull align 4 dereferenceable(68) %3) #4
  store i32 0, ptr %4, align 4
  br label %6

6:                                                ; preds = %13, %1
  %7 = load i32, ptr %4, align 4
  %8 = load i32, ptr %2, align 4
  %9 = icmp slt i32 %7, %8
  br i1 %9, label %10, label %16

10:                                               ; preds = %6
  %11 = load i32, ptr %4, align 4
  %12 = mul nsw i32 %11, 3
  call void @_ZN5StackIjE4pushEj(ptr noundef nonnull align 4 dereferenceable(68) %3, i32 noundef %12)
  br label %13

13:                                               ; preds = %10
  %14 = load i32, ptr %4, align 4
  %15 = add nsw i32 %14, 1
  store i32 %15, ptr %4, align 4
  br label %6, !llvm.loop !10

16:                                               ; preds = %6
  %17 = call noundef i32 @_ZNK5StackIjE3sumEv(ptr noundef nonnull align 4 dereferenceable(68) %3)
  store i32 %17, ptr %5, align 4
  %18 = call noundef i32 @_ZN5StackIjE3popEv(ptr noundef nonnull align 4 dereferenceable(68) %3)
  %19 = load i32, ptr %5, align 4
  %20 = call noundef i32 @_ZN5StackIjE3popEv(ptr noundef nonnull align 4 dereferenceable(68) %3)
  %21 = add i32 %19, %20
  ret i32 %21
}

declare i32 @printf(ptr noundef, ...) #2

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @_ZN5StackIlEC2Ev(ptr noundef nonnull align 8 dereferenceable(132) %0) unnamed_addr #3 comdat align 2 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %3 = load ptr, ptr %2, align 8
  %4 = getelementptr inbounds nuw %struct.Stack, ptr %3, i32 0, i32 1
  store i32 0, ptr %4, align 8
  ret void
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @_ZN5StackIlE4pushEl(ptr noundef nonnull align 8 dereferenceable(132) %0, i64 noundef %1) #3 comdat align 2 {
  %3 = alloca ptr, align 8
  %4 = alloca i64, align 8
  store ptr %0, ptr %3, align 8
  store i64 %1, ptr %4, align 8
  %5 = load ptr, ptr %3, align 8
  %6 = getelementptr inbounds nuw %struct.Stack, ptr %5, i32 0, i32 1
  %7 = load i32, ptr %6, align 8
  %8 = icmp slt i32 %7, 16
  br i1 %8, label %9, label %17

9:                                                ; preds = %2
  %10 = load i64, ptr %4, align 8
  %11 = getelementptr inbounds nuw %struct.Stack, ptr %5, i32 0, i32 0
  %12 = getelementptr inbounds nuw %struct.Stack, ptr %5, i32 0, i32 1
  %13 = load i32, ptr %12, align 8
  %14 = add nsw i32 %13, 1
  store i32 %14, ptr %12, align 8
  %15 = sext i32 %13 to i64
  %16 = getelementptr inbounds [16 x i64], ptr %11, i64 0, i64 %15
  store i64 %10, ptr %16, align 8
  br label %17

17:                                               ; preds = %9, %2
  ret void
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local noundef i64 @_ZNK5StackIlE3sumEv(ptr noundef nonnull align 8 dereferenceable(132) %0) #3 comdat align 2 {
  %2 = alloca ptr, align 8
  %3 = alloca i64, align 8
  %4 = alloca i32, align 4
  store ptr %0, ptr %2, align 8
  %5 = load ptr, ptr %2, align 8
  store i64 0, ptr %3, align 8
  store i32 0, ptr %4, align 4
  br label %6

6:                                                ; preds = %19, %1
  %7 = load i32, ptr %4, align 4
  %8 = getelementptr inbounds nuw %struct.Stack, ptr %5, i32 0, i32 1
  %9 = load i32, ptr %8, align 8
  %10 = icmp slt i32 %7, %9
  br i1 %10, label %11, label %22

11:                                               ; preds = %6
  %12 = getelementptr inbounds nuw %struct.Stack, ptr %5, i32 0, i32 0
  %13 = load i32, ptr %4, align 4
  %14 = sext i32 %13 to i64
  %15 = getelementptr inbounds [16 x i64], ptr %12, i64 0, i64 %14
  %16 = load i64, ptr %15, align 8
  %17 = load i64, ptr %3, align 8
  %18 = add nsw i64 %17, %16
  store i64 %18, ptr %3, align 8
  br label %19

19:                                               ; preds = %11
  %20 = load i32, ptr %4, align 4
  %21 = add nsw i32 %20, 1
  store i32 %21, ptr %4, align 4
  br label %6, !llvm.loop !11

22:                                               ; preds = %6
  %23 = load i64, ptr %3, align 8
  ret i64 %23
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local noundef i64 @_ZN5StackIlE3popEv(ptr noundef nonnull align 8 dereferenceable(132) %0) #3 comdat align 2 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %3 = load ptr, ptr %2, align 8
  %4 = getelementptr inbounds nuw %struct.Stack, ptr %3, i32 0, i32 1
  %5 = load i32, ptr %4, align 8
  %6 = icmp sgt i32 %5, 0
  br i1 %6, label %7, label %15

7:                                                ; preds = %1
  %8 = getelementptr inbounds nuw %struct.Stack, ptr %3, i32 0, i32 0
  %9 = getelementptr inbounds nuw %struct.Stack, ptr %3, i32 0, i32 1
  %10 = load i32, ptr %9, align 8
  %11 = add nsw i32 %10, -1
  store i32 %11, ptr %9, align 8
  %12 = sext i32 %11 to i64
  %13 = getelementptr inbounds [16 x i64], ptr %8, i64 0, i64 %12
  %14 = load i64, ptr %13, align 8
  br label %16

15:                                               ; preds = %1
  br label %16

16:                                               ; preds = %15, %7
  %17 = phi i64 [ %14, %7 ], [ 0, %15 ]
  ret i64 %17
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @_ZN5StackImEC2Ev(ptr noundef nonnull align 8 dereferenceable(132) %0) unnamed_addr #3 comdat align 2 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %3 = load ptr, ptr %2, align 8
  %4 = getelementptr inbounds nuw %struct.Stack.0, ptr %3, i32 0, i32 1
  store i32 0, ptr %4, align 8
  ret void
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @_ZN5StackImE4pushEm(ptr noundef nonnull align 8 dereferenceable(132) %0, i64 noundef %1) #3 comdat align 2 {
  %3 = alloca ptr, align 8
  %4 = alloca i64, align 8
  store ptr %0, ptr %3, align 8
  store i64 %1, ptr %4, align 8
  %5 = load ptr, ptr %3, align 8
  %6 = getelementptr inbounds nuw %struct.Stack.0, ptr %5, i32 0, i32 1
  %7 = load i32, ptr %6, align 8
  %8 = icmp slt i32 %7, 16
  br i1 %8, label %9, label %17

9:                                                ; preds = %2
  %10 = load i64, ptr %4, align 8
  %11 = getelementptr inbounds nuw %struct.Stack.0, ptr %5, i32 0, i32 0
  %12 = getelementptr inbounds nuw %struct.Stack.0, ptr %5, i32 0, i32 1
  %13 = load i32, ptr %12, align 8
  %14 = add nsw i32 %13, 1
  store i32 %14, ptr %12, align 8
  %15 = sext i32 %13 to i64
  %16 = getelementptr inbounds [16 x i64], ptr %11, i64 0, i64 %15
  store i64 %10, ptr %16, align 8
  br label %17

17:                                               ; preds = %9, %2
  ret void
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local noundef i64 @_ZNK5StackImE3sumEv(ptr noundef nonnull align 8 dereferenceable(132) %0) #3 comdat align 2 {
  %2 = alloca ptr, align 8
  %3 = alloca i64, align 8
  %4 = alloca i32, align 4
  store ptr %0, ptr %2, align 8
  %5 = load ptr, ptr %2, align 8
  store i64 0, ptr %3, align 8
  store i32 0, ptr %4, align 4
  br label %6

6:                                                ; preds = %19, %1
  %7 = load i32, ptr %4, align 4
  %8 = getelementptr inbounds nuw %struct.Stack.0, ptr %5, i32 0, i32 1
  %9 = load i32, ptr %8, align 8
  %10 = icmp slt i32 %7, %9
  br i1 %10, label %11, label %22

11:                                               ; preds = %6
  %12 = getelementptr inbounds nuw %struct.Stack.0, ptr %5, i32 0, i32 0
  %13 = load i32, ptr %4, align 4
  %14 = sext i32 %13 to i64
  %15 = getelementptr inbounds [16 x i64], ptr %12, i64 0, i64 %14
  %16 = load i64, ptr %15, align 8
  %17 = load i64, ptr %3, align 8
  %18 = add i64 %17, %16
  store i64 %18, ptr %3, align 8
  br label %19

19:                                               ; preds = %11
  %20 = load i32, ptr %4, align 4
  %21 = add nsw i32 %20, 1
  store i32 %21, ptr %4, align 4
  br label %6, !llvm.loop !12

22:                                               ; preds = %6
  %23 = load i64, ptr %3, align 8
  ret i64 %23
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local noundef i64 @_ZN5StackImE3popEv(ptr noundef nonnull align 8 dereferenceable(132) %0) #3 comdat align 2 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %3 = load ptr, ptr %2, align 8
  %4 = getelementptr inbounds nuw %struct.Stack.0, ptr %3, i32 0, i32 1
  %5 = load i32, ptr %4, align 8
  %6 = icmp sgt i32 %5, 0
  br i1 %6, label %7, label %15

7:                                                ; preds = %1
  %8 = getelementptr inbounds nuw %struct.Stack.0, ptr %3, i32 0, i32 0
  %9 = getelementptr inbounds nuw %struct.Stack.0, ptr %3, i32 0, i32 1
  %10 = load i32, ptr %9, align 8
  %11 = add nsw i32 %10, -1
  store i32 %11, ptr %9, align 8
  %12 = sext i32 %11 to i64
  %13 = getelementptr inbounds [16 x i64], ptr %8, i64 0, i64 %12
  %14 = load i64, ptr %13, align 8
  br label %16

15:                                               ; preds = %1
  br label %16

16:                                               ; preds = %15, %7
  %17 = phi i64 [ %14, %7 ], [ 0, %15 ]
  ret i64 %17
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @_ZN5StackIiEC2Ev(ptr noundef nonnull align 4 dereferenceable(68) %0) unnamed_addr #3 comdat align 2 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %3 = load ptr, ptr %2, align 8
  %4 = getelementptr inbounds nuw %struct.Stack.2, ptr %3, i32 0, i32 1
  store i32 0, ptr %4, align 4
  ret void
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @_ZN5StackIiE4pushEi(ptr noundef nonnull align 4 dereferenceable(68) %0, i32 noundef %1) #3 comdat align 2 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
  store i32 %1, ptr %4, align 4
  %5 = load ptr, ptr %3, align 8
  %6 = getelementptr inbounds nuw %struct.Stack.2, ptr %5, i32 0, i32 1
  %7 = load i32, ptr %6, align 4
  %8 = icmp slt i32 %7, 16
  br i1 %8, label %9, label %17

9:                                                ; preds = %2
  %10 = load i32, ptr %4, align 4
  %11 = getelementptr inbounds nuw %struct.Stack.2, ptr %5, i32 0, i32 0
  %12 = getelementptr inbounds nuw %struct.Stack.2, ptr %5, i32 0, i32 1
  %13 = load i32, ptr %12, align 4
  %14 = add nsw i32 %13, 1
  store i32 %14, ptr %12, align 4
  %15 = sext i32 %13 to i64
  %16 = getelementptr inbounds [16 x i32], ptr %11, i64 0, i64 %15
  store i32 %10, ptr %16, align 4
  br label %17

17:                                               ; preds = %9, %2
  ret void
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local noundef i32 @_ZNK5StackIiE3sumEv(ptr noundef nonnull align 4 dereferenceable(68) %0) #3 comdat align 2 {
  %2 = alloca ptr, align 8
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  store ptr %0, ptr %2, align 8
  %5 = load ptr, ptr %2, align 8
  store i32 0, ptr %3, align 4
  store i32 0, ptr %4, align 4
  br label %6

6:                                                ; preds = %19, %1
  %7 = load i32, ptr %4, align 4
  %8 = getelementptr inbounds nuw %struct.Stack.2, ptr %5, i32 0, i32 1
  %9 = load i32, ptr %8, align 4
  %10 = icmp slt i32 %7, %9
  br i1 %10, label %11, label %22

11:                                               ; preds = %6
  %12 = getelementptr inbounds nuw %struct.Stack.2, ptr %5, i32 0, i32 0
  %13 = load i32, ptr %4, align 4
  %14 = sext i32 %13 to i64
  %15 = getelementptr inbounds [16 x i32], ptr %12, i64 0, i64 %14
  %16 = load i32, ptr %15, align 4
  %17 = load i32, ptr %3, align 4
  %18 = add nsw i32 %17, %16
  store i32 %18, ptr %3, align 4
  br label %19

19:                                               ; preds = %11
  %20 = load i32, ptr %4, align 4
  %21 = add nsw i32 %20, 1
  store i32 %21, ptr %4, align 4
  br label %6, !llvm.loop !13

22:                                               ; preds = %6
  %23 = load i32, ptr %3, align 4
  ret i32 %23
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local noundef i32 @_ZN5StackIiE3popEv(ptr noundef nonnull align 4 dereferenceable(68) %0) #3 comdat align 2 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %3 = load ptr, ptr %2, align 8
  %4 = getelementptr inbounds nuw %struct.Stack.2, ptr %3, i32 0, i32 1
  %5 = load i32, ptr %4, align 4
  %6 = icmp sgt i32 %5, 0
  br i1 %6, label %7, label %15

7:                                                ; preds = %1
  %8 = getelementptr inbounds nuw %struct.Stack.2, ptr %3, i32 0, i32 0
  %9 = getelementptr inbounds nuw %struct.Stack.2, ptr %3, i32 0, i32 1
  %10 = load i32, ptr %9, align 4
  %11 = add nsw i32 %10, -1
  store i32 %11, ptr %9, align 4
  %12 = sext i32 %11 to i64
  %13 = getelementptr inbounds [16 x i32], ptr %8, i64 0, i64 %12
  %14 = load i32, ptr %13, align 4
  br label %16

15:                                               ; preds = %1
  br label %16

16:                                               ; preds = %15, %7
  %17 = phi i32 [ %14, %7 ], [ 0, %15 ]
  ret i32 %17
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @_ZN5StackIjEC2Ev(ptr noundef nonnull align 4 dereferenceable(68) %0) unnamed_addr #3 comdat align 2 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %3 = load ptr, ptr %2, align 8
  %4 = getelementptr inbounds nuw %struct.Stack.3, ptr %3, i32 0, i32 1
  store i32 0, ptr %4, align 4
  ret void
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @_ZN5StackIjE4pushEj(ptr noundef nonnull align 4 dereferenceable(68) %0, i32 noundef %1) #3 comdat align 2 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
  store i32 %1, ptr %4, align 4
  %5 = load ptr, ptr %3, align 8
  %6 = getelementptr inbounds nuw %struct.Stack.3, ptr %5, i32 0, i32 1
  %7 = load i32, ptr %6, align 4
  %8 = icmp slt i32 %7, 16
  br i1 %8, label %9, label %17

9:                                                ; preds = %2
  %10 = load i32, ptr %4, align 4
  %11 = getelementptr inbounds nuw %struct.Stack.3, ptr %5, i32 0, i32 0
  %12 = getelementptr inbounds nuw %struct.Stack.3, ptr %5, i32 0, i32 1
  %13 = load i32, ptr %12, align 4
  %14 = add nsw i32 %13, 1
  store i32 %14, ptr %12, align 4
  %15 = sext i32 %13 to i64
  %16 = getelementptr inbounds [16 x i32], ptr %11, i64 0, i64 %15
  store i32 %10, ptr %16, align 4
  br label %17

17:                                               ; preds = %9, %2
  ret void
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local noundef i32 @_ZNK5StackIjE3sumEv(ptr noundef nonnull align 4 dereferenceable(68) %0) #3 comdat align 2 {
  %2 = alloca ptr, align 8
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  store ptr %0, ptr %2, align 8
  %5 = load ptr, ptr %2, align 8
  store i32 0, ptr %3, align 4
  store i32 0, ptr %4, align 4
  br label %6

6:                                                ; preds = %19, %1
  %7 = load i32, ptr %4, align 4
  %8 = getelementptr inbounds nuw %struct.Stack.3, ptr %5, i32 0, i32 1
  %9 = load i32, ptr %8, align 4
  %10 = icmp slt i32 %7, %9
  br i1 %10, label %11, label %22

11:                                               ; preds = %6
  %12 = getelementptr inbounds nuw %struct.Stack.3, ptr %5, i32 0, i32 0
  %13 = load i32, ptr %4, align 4
  %14 = sext i32 %13 to i64
  %15 = getelementptr inbounds [16 x i32], ptr %12, i64 0, i64 %14
  %16 = load i32, ptr %15, align 4
  %17 = load i32, ptr %3, align 4
  %18 = add i32 %17, %16
  store i32 %18, ptr %3, align 4
  br label %19

19:                                               ; preds = %11
  %20 = load i32, ptr %4, align 4
  %21 = add nsw i32 %20, 1
  store i32 %21, ptr %4, align 4
  br label %6, !llvm.loop !14

22:                                               ; preds = %6
  %23 = load i32, ptr %3, align 4
  ret i32 %23
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local noundef i32 @_ZN5StackIjE3popEv(ptr noundef nonnull align 4 dereferenceable(68) %0) #3 comdat align 2 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %3 = load ptr, ptr %2, align 8
  %4 = getelementptr inbounds nuw %struct.Stack.3, ptr %3, i32 0, i32 1
  %5 = load i32, ptr %4, align 4
  %6 = icmp sgt i32 %5, 0
  br i1 %6, label %7, label %15

7:                                                ; preds = %1
  %8 = getelementptr inbounds nuw %struct.Stack.3, ptr %3, i32 0, i32 0
  %9 = getelementptr inbounds nuw %struct.Stack.3, ptr %3, i32 0, i32 1
  %10 = load i32, ptr %9, align 4
  %11 = add nsw i32 %10, -1
  store i32 %11, ptr %9, align 4
  %12 = sext i32 %11 to i64
  %13 = getelementptr inbounds [16 x i32], ptr %8, i64 0, i64 %12
  %14 = load i32, ptr %13, align 4
  br label %16

15:                                               ; preds = %1
  br label %16

16:                                               ; preds = %15, %7
  %17 = phi i32 [ %14, %7 ], [ 0, %15 ]
  ret i32 %17
}

attributes #0 = { mustprogress noinline norecurse optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress noinline optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { mustprogress noinline nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3, !4}
!llvm.ident = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{i32 7, !"frame-pointer", i32 2}
!5 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!6 = distinct !{!6, !7}
!7 = !{!"llvm.loop.mustprogress"}
!8 = distinct !{!8, !7}
!9 = distinct !{!9, !7}
!10 = distinct !{!10, !7}
!11 = distinct !{!11, !7}
!12 = distinct !{!12, !7}
!13 = distinct !{!13, !7}
!14 = distinct !{!14, !7}
