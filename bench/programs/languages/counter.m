// Objective-C with ARC, for the GNUstep and Apple runtimes: methods named `\01-[C m]`,
// property accessors, message sends.
#include <stdio.h>
__attribute__((objc_root_class))
@interface Root { Class isa; }
+ (id)alloc;
- (id)init;
@end
@interface Counter : Root
@property int count;
- (void)bump;
- (void)bumpToo;
@end
@implementation Counter
- (void)bump { self.count = self.count + 1; }
- (void)bumpToo { self.count = self.count + 1; }
@end
void use(Counter *c) { [c bump]; [c bumpToo]; printf("%d\n", c.count); }
id make(void) { return [[Counter alloc] init]; }
id make2(void) { return [[Counter alloc] init]; }
