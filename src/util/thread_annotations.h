// util/thread_annotations.h — Clang thread-safety analysis attributes as macros.
//
// With Clang these expand to the capability attributes that -Wthread-safety checks (see
// util/mutex.h for the annotated Mutex, MutexLock and CondVar and for how to run the check).
// On compilers without the attributes (GCC builds everything else) every macro expands to
// nothing, so an annotation never changes the generated code.

#ifndef SLUICE_UTIL_THREAD_ANNOTATIONS_H_
#define SLUICE_UTIL_THREAD_ANNOTATIONS_H_

#if defined(__clang__)
#define SLUICE_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define SLUICE_THREAD_ANNOTATION(x)
#endif

// On a class: its objects are capabilities (locks) named `x` in diagnostics ("mutex").
#define CAPABILITY(x) SLUICE_THREAD_ANNOTATION(capability(x))
// On a class: an RAII object that holds a capability from construction to destruction.
#define SCOPED_CAPABILITY SLUICE_THREAD_ANNOTATION(scoped_lockable)

// On a data member: reads and writes require holding the capability.
#define GUARDED_BY(x) SLUICE_THREAD_ANNOTATION(guarded_by(x))
// On a pointer member (raw or smart): access to what it points to requires the capability.
#define PT_GUARDED_BY(x) SLUICE_THREAD_ANNOTATION(pt_guarded_by(x))

// On a function: callers must hold the capabilities (exclusively / at least shared).
#define REQUIRES(...) SLUICE_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define REQUIRES_SHARED(...) SLUICE_THREAD_ANNOTATION(requires_shared_capability(__VA_ARGS__))
// On a function: it acquires / releases the capabilities (none named: the object itself).
#define ACQUIRE(...) SLUICE_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define RELEASE(...) SLUICE_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
// On a function: acquires the capability if it returns the first argument (true).
#define TRY_ACQUIRE(...) SLUICE_THREAD_ANNOTATION(try_acquire_capability(__VA_ARGS__))
// On a function: callers must not hold the capabilities (it takes them itself).
#define EXCLUDES(...) SLUICE_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
// On a function: once it returns, the analysis assumes the caller holds the capability.
#define ASSERT_CAPABILITY(x) SLUICE_THREAD_ANNOTATION(assert_capability(x))
// On a function: it returns a reference to the capability `x`.
#define RETURN_CAPABILITY(x) SLUICE_THREAD_ANNOTATION(lock_returned(x))
// On a function: the analysis skips its body. Say next to it why the analysis cannot follow.
#define NO_THREAD_SAFETY_ANALYSIS SLUICE_THREAD_ANNOTATION(no_thread_safety_analysis)

#endif  // SLUICE_UTIL_THREAD_ANNOTATIONS_H_
