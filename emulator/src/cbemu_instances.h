// Class templates of the C++ library that the emulator's own headers instantiate in every translation unit (their
// inline state accessors and helpers use them), listed once for two uses:
//   - verify's precompiled header declares each `extern template class T;` (CBEMU_INSTANCE defined that way), so a
//     kernel's compile no longer instantiates their out-of-line members at the end of its translation unit: g++
//     does that for every use the header makes, needed or not - most of a small kernel's compile at -O0;
//   - cbemu_instances.cpp defines each (`template class T;`), archived in libcbemu.a with the runtime, so a program
//     that calls one of those members links it from there.
// Only with COTBUILDER_EMU_PREBUILT (the library is there); a header-only build instantiates them as any program.
// A type here must be complete in kernel_operator.h + tikicpulib.h and every member of it instantiable (no
// vector<unique_ptr<...>>: its copy constructor is not).
CBEMU_INSTANCE(std::vector<int>)
CBEMU_INSTANCE(std::vector<long>)
CBEMU_INSTANCE(std::deque<int>)
CBEMU_INSTANCE(std::set<std::string>)
CBEMU_INSTANCE(std::_Rb_tree<std::string, std::string, std::_Identity<std::string>, std::less<std::string>,
                             std::allocator<std::string>>)
CBEMU_INSTANCE(std::vector<cbemu::hz::Site>)
CBEMU_INSTANCE(std::vector<cbemu::QBuf>)
CBEMU_INSTANCE(std::unordered_map<cbemu::hz::SiteKey, uint32_t, cbemu::hz::SiteKeyHash>)
CBEMU_INSTANCE(std::map<uintptr_t, cbemu::hz::GmShadow>)
CBEMU_INSTANCE(std::_Rb_tree<uintptr_t, std::pair<const uintptr_t, cbemu::hz::GmShadow>,
                             std::_Select1st<std::pair<const uintptr_t, cbemu::hz::GmShadow>>, std::less<uintptr_t>,
                             std::allocator<std::pair<const uintptr_t, cbemu::hz::GmShadow>>>)
CBEMU_INSTANCE(std::map<std::string, cbemu::CoreBuilds>)
CBEMU_INSTANCE(std::_Rb_tree<std::string, std::pair<const std::string, cbemu::CoreBuilds>,
                             std::_Select1st<std::pair<const std::string, cbemu::CoreBuilds>>, std::less<std::string>,
                             std::allocator<std::pair<const std::string, cbemu::CoreBuilds>>>)
