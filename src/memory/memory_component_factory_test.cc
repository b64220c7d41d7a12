// Tests of the memory component factories (memory_component_factory.h): every registered name
// gets the factory of that family, whose components report the name; an unknown name is
// InvalidArgument naming Options::memtable; the family properties are served only by the
// family that has them.

#include "memory/memory_component_factory.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "memory/flodb/flodb_factory.h"
#include "support/test_util.h"
#include "util/epoch.h"

namespace sluice {
namespace {

TEST(MemoryComponentFactoryTest, EveryNameGetsAFactoryWhoseComponentsReportIt) {
  for (const std::string& name : MemoryComponentNames()) {
    Options options;
    options.memtable = name;
    options.write_buffer_size = 1 << 20;
    std::unique_ptr<MemoryComponentFactory> factory;
    ASSERT_OK(NewMemoryComponentFactory(options, &factory)) << name;
    EXPECT_EQ(name, factory->Name());
    for (bool unobserved : {false, true}) {
      std::unique_ptr<MemoryComponent> c;
      const MemoryComponentContext context;
      ASSERT_TRUE((unobserved ? factory->NewUnobservedComponent(context, &c)
                              : factory->NewComponent(context, &c))
                      .ok())
          << name;
      // An adaptive component names its family, then the representation it wraps.
      const std::string reported = c->Name();
      EXPECT_TRUE(reported == name || reported.rfind(name + ":", 0) == 0)
          << name << " reported " << reported;
      c->Add(1, kTypeValue, "k", "v");
      MemoryLookup lookup;
      epoch::Guard guard;  // components that reclaim through epochs read inside one
      EXPECT_TRUE(c->Get("k", kMaxSequenceNumber, &lookup)) << name;
    }
  }
}

TEST(MemoryComponentFactoryTest, UnknownNameIsInvalidArgumentNamingMemtable) {
  Options options;
  options.memtable = "no-such-thing";
  std::unique_ptr<MemoryComponentFactory> factory;
  const Status s = NewMemoryComponentFactory(options, &factory);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ(nullptr, factory);
  EXPECT_NE(std::string::npos, s.ToString().find("memtable")) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("no-such-thing")) << s.ToString();
}

TEST(MemoryComponentFactoryTest, FamilyPropertiesBelongToTheirFamily) {
  Options options;
  options.write_buffer_size = 1 << 20;
  std::string value = "untouched";
  for (const std::string& name : MemoryComponentNames()) {
    options.memtable = name;
    std::unique_ptr<MemoryComponentFactory> factory;
    ASSERT_OK(NewMemoryComponentFactory(options, &factory));
    EXPECT_EQ(name == "flodb", factory->GetProperty("sluice.flodb-stats", &value)) << name;
    EXPECT_EQ(name == "adaptive", factory->GetProperty("sluice.memtable-choices", &value)) << name;
    EXPECT_FALSE(factory->GetProperty("sluice.stats", &value)) << name;
  }

  // FloDB's components share the factory's counters, which also count the DB's scans.
  options.memtable = "flodb";
  std::unique_ptr<MemoryComponentFactory> factory;
  ASSERT_OK(NewMemoryComponentFactory(options, &factory));
  for (int i = 0; i < 2; i++) {
    std::unique_ptr<MemoryComponent> c;
    ASSERT_OK(factory->NewComponent(MemoryComponentContext(), &c));
    c->Add(i + 1, kTypeValue, "k", "v");
  }
  factory->RecordScanEvent(MemoryComponentFactory::ScanEvent::kStarted);
  factory->RecordScanEvent(MemoryComponentFactory::ScanEvent::kRestarted);
  const FloDBStats& stats = *static_cast<FloDBComponentFactory&>(*factory).stats();
  EXPECT_EQ(2u, stats.Writes());
  EXPECT_EQ(1u, stats.scans.Get());
  EXPECT_EQ(1u, stats.scan_restarts.Get());
  EXPECT_EQ(0u, stats.scan_fallbacks.Get());
  ASSERT_TRUE(factory->GetProperty("sluice.flodb-stats", &value));
  EXPECT_EQ(stats.ToString(), value);
}

}  // namespace
}  // namespace sluice
