// Small file helpers shared by the host programs of this corpus:
// read a raw binary input produced by scripts/gen_data.py and write the raw kernel output.
#ifndef EXAMPLES_DATA_UTILS_H
#define EXAMPLES_DATA_UTILS_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <sys/stat.h>

#define INFO_LOG(fmt, ...) std::fprintf(stdout, "[INFO]  " fmt "\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) std::fprintf(stderr, "[ERROR] " fmt "\n", ##__VA_ARGS__)

// Reads the whole file into buffer. fileSize receives the number of bytes read.
// Fails when the file is missing, empty or larger than the buffer.
inline bool ReadFile(const std::string &filePath, size_t &fileSize, void *buffer, size_t bufferSize)
{
    struct stat info;
    if (stat(filePath.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
        ERROR_LOG("%s is not a readable file", filePath.c_str());
        return false;
    }
    size_t size = static_cast<size_t>(info.st_size);
    if (size == 0 || size > bufferSize) {
        ERROR_LOG("%s has %zu bytes, buffer holds %zu", filePath.c_str(), size, bufferSize);
        return false;
    }
    std::FILE *fp = std::fopen(filePath.c_str(), "rb");
    if (fp == nullptr) {
        ERROR_LOG("cannot open %s", filePath.c_str());
        return false;
    }
    size_t got = std::fread(buffer, 1, size, fp);
    std::fclose(fp);
    if (got != size) {
        ERROR_LOG("short read on %s: %zu of %zu bytes", filePath.c_str(), got, size);
        return false;
    }
    fileSize = size;
    return true;
}

// Writes size bytes of buffer to filePath, replacing any previous content.
inline bool WriteFile(const std::string &filePath, const void *buffer, size_t size)
{
    if (buffer == nullptr) {
        ERROR_LOG("nothing to write to %s", filePath.c_str());
        return false;
    }
    std::FILE *fp = std::fopen(filePath.c_str(), "wb");
    if (fp == nullptr) {
        ERROR_LOG("cannot create %s", filePath.c_str());
        return false;
    }
    size_t put = std::fwrite(buffer, 1, size, fp);
    std::fclose(fp);
    if (put != size) {
        ERROR_LOG("short write on %s: %zu of %zu bytes", filePath.c_str(), put, size);
        return false;
    }
    return true;
}

#endif // EXAMPLES_DATA_UTILS_H
