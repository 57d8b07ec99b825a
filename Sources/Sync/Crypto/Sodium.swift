// The libsodium calls behind encrypted remotes, loaded on first use (see CSodium): commands
// that never sync with an encrypted remote never open the library.
import CSodium

enum Sodium {
    /// The function table, or why libsodium could not be loaded.
    static func api() throws -> notes_sodium_api {
        try shared.get()
    }

    // Written once, before the first read, and never changed: safe to share.
    private static let shared: Result<notes_sodium_api, SyncError> = {
        var message = [CChar](repeating: 0, count: 512)
        guard let pointer = notes_sodium_open(&message, message.count) else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(.encryptionUnavailable(text))
        }
        return .success(pointer.pointee)
    }()

    static func random(_ count: Int) throws -> [UInt8] {
        let api = try api()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { api.randombytes_buf($0.baseAddress!, $0.count) }
        return bytes
    }

    /// Keyed BLAKE2b of `parts`, each preceded by its length so that no two lists of parts
    /// hash alike.
    static func keyedHash(_ parts: [[UInt8]], key: [UInt8], length: Int) throws -> [UInt8] {
        let api = try api()
        var input: [UInt8] = []
        input.reserveCapacity(parts.reduce(0) { $0 + $1.count + 8 })
        for part in parts {
            withUnsafeBytes(of: UInt64(part.count).littleEndian) { input += $0 }
            input += part
        }
        var out = [UInt8](repeating: 0, count: length)
        let rc = out.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { input in
                key.withUnsafeBufferPointer { key in
                    api.crypto_generichash(out.baseAddress, length, input.baseAddress, UInt64(input.count), key.baseAddress, key.count)
                }
            }
        }
        guard rc == 0 else { throw SyncError.encryptionUnavailable("crypto_generichash failed") }
        return out
    }

    /// Argon2id: 32 key bytes from a passphrase and a salt.
    static func deriveKey(passphrase: [UInt8], salt: [UInt8], operations: UInt64, memory: Int) throws -> [UInt8] {
        let api = try api()
        var key = [UInt8](repeating: 0, count: 32)
        let rc = key.withUnsafeMutableBufferPointer { key in
            passphrase.withUnsafeBufferPointer { passphrase in
                salt.withUnsafeBufferPointer { salt in
                    passphrase.baseAddress!.withMemoryRebound(to: CChar.self, capacity: passphrase.count) { text in
                        api.crypto_pwhash(key.baseAddress, UInt64(key.count), text, UInt64(passphrase.count), salt.baseAddress,
                                          operations, memory, Int32(crypto_pwhash_argon2id_ALG_ARGON2ID13))
                    }
                }
            }
        }
        // "returns 0 on success, and -1 if the computation didn't complete, usually because the
        // operating system refused to allocate the amount of requested memory."
        guard rc == 0 else { throw SyncError.encryptionUnavailable("Argon2id could not allocate \(memory >> 20) MiB") }
        return key
    }

    static let nonceBytes = 24
    static let tagBytes = 16

    /// XChaCha20-Poly1305 of `plaintext`, authenticated with `context`: nonce, then ciphertext and tag.
    static func encrypt(_ plaintext: [UInt8], context: [UInt8], nonce: [UInt8], key: [UInt8]) throws -> [UInt8] {
        let api = try api()
        var out = nonce + [UInt8](repeating: 0, count: plaintext.count + tagBytes)
        var written: UInt64 = 0
        let rc = out.withUnsafeMutableBufferPointer { out in
            plaintext.withUnsafeBufferPointer { message in
                context.withUnsafeBufferPointer { context in
                    key.withUnsafeBufferPointer { key in
                        api.crypto_aead_xchacha20poly1305_ietf_encrypt(
                            out.baseAddress! + nonceBytes, &written, message.baseAddress, UInt64(message.count),
                            context.baseAddress, UInt64(context.count), nil, out.baseAddress, key.baseAddress)
                    }
                }
            }
        }
        guard rc == 0 else { throw SyncError.encryptionUnavailable("crypto_aead_xchacha20poly1305_ietf_encrypt failed") }
        return out
    }

    /// The plaintext of `sealed` (nonce, ciphertext, tag), or nil when it was not sealed with
    /// this key and context: altered, damaged, moved, or another key's.
    static func decrypt(_ sealed: [UInt8], context: [UInt8], key: [UInt8]) throws -> [UInt8]? {
        guard sealed.count >= nonceBytes + tagBytes else { return nil }
        let api = try api()
        let length = sealed.count - nonceBytes - tagBytes
        // One spare byte: an empty plaintext still needs a buffer to point at.
        var out = [UInt8](repeating: 0, count: length + 1)
        var written: UInt64 = 0
        let rc = out.withUnsafeMutableBufferPointer { out in
            sealed.withUnsafeBufferPointer { sealed in
                context.withUnsafeBufferPointer { context in
                    key.withUnsafeBufferPointer { key in
                        api.crypto_aead_xchacha20poly1305_ietf_decrypt(
                            out.baseAddress, &written, nil, sealed.baseAddress! + nonceBytes, UInt64(sealed.count - nonceBytes),
                            context.baseAddress, UInt64(context.count), sealed.baseAddress, key.baseAddress)
                    }
                }
            }
        }
        return rc == 0 ? Array(out.prefix(length)) : nil
    }
}
