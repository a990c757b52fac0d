/* A stand-in for Windows' bcryptprimitives.dll, which Wine 8 lacks and Rust's standard library (in the Windows build
 * of @napi-rs/keyring) loads for ProcessPrng. Built by scripts/test-win32.sh with mingw-w64 into the Wine prefix only,
 * so that the keychain library can reach Wine's Credential Manager there. Never shipped. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length); /* RtlGenRandom, advapi32 */

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
    if (!SystemFunction036(data, chunk)) return FALSE;
    data += chunk;
    length -= chunk;
  }
  return TRUE;
}
