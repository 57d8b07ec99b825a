// libgit2, opened with dlopen on first use. The table's field types come from git2.h itself
// (__typeof__), so a signature can never drift from the installed header.
#ifndef NOTES_CGIT2_H
#define NOTES_CGIT2_H

#include <stddef.h>
#include <git2.h>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>

// Every libgit2 function the Sync module calls. Add a name here to make it callable.
#define NOTES_GIT_FUNCTIONS(X) \
    X(git_libgit2_init) \
    X(git_libgit2_shutdown) \
    X(git_libgit2_version) \
    X(git_libgit2_opts) \
    X(git_error_last) \
    X(git_repository_open) \
    X(git_repository_init) \
    X(git_repository_init_ext) \
    X(git_repository_init_options_init) \
    X(git_repository_free) \
    X(git_repository_path) \
    X(git_repository_is_bare) \
    X(git_repository_set_head) \
    X(git_reference_list) \
    X(git_repository_odb) \
    X(git_odb_free) \
    X(git_odb_add_backend) \
    X(git_mempack_new) \
    X(git_packbuilder_new) \
    X(git_packbuilder_insert) \
    X(git_packbuilder_set_threads) \
    X(git_packbuilder_write) \
    X(git_packbuilder_free) \
    X(git_mempack_reset) \
    X(git_blob_create_from_buffer) \
    X(git_blob_lookup) \
    X(git_blob_rawcontent) \
    X(git_blob_rawsize) \
    X(git_blob_free) \
    X(git_tree_lookup) \
    X(git_tree_free) \
    X(git_tree_entrycount) \
    X(git_tree_entry_byindex) \
    X(git_tree_entry_byname) \
    X(git_tree_entry_name) \
    X(git_tree_entry_id) \
    X(git_tree_entry_type) \
    X(git_treebuilder_new) \
    X(git_treebuilder_insert) \
    X(git_treebuilder_remove) \
    X(git_treebuilder_get) \
    X(git_treebuilder_write) \
    X(git_treebuilder_free) \
    X(git_commit_lookup) \
    X(git_commit_tree_id) \
    X(git_commit_parentcount) \
    X(git_commit_parent_id) \
    X(git_commit_time) \
    X(git_commit_time_offset) \
    X(git_commit_message) \
    X(git_commit_free) \
    X(git_commit_create) \
    X(git_signature_now) \
    X(git_signature_new) \
    X(git_signature_free) \
    X(git_reference_name_to_id) \
    X(git_reference_create) \
    X(git_reference_create_matching) \
    X(git_reference_remove) \
    X(git_reference_free) \
    X(git_merge_base) \
    X(git_graph_descendant_of) \
    X(git_odb_hash) \
    X(git_revwalk_new) \
    X(git_revwalk_push) \
    X(git_revwalk_next) \
    X(git_revwalk_sorting) \
    X(git_revwalk_free) \
    X(git_remote_create) \
    X(git_remote_create_with_fetchspec) \
    X(git_remote_get_fetch_refspecs) \
    X(git_remote_lookup) \
    X(git_remote_delete) \
    X(git_remote_list) \
    X(git_remote_url) \
    X(git_remote_free) \
    X(git_remote_fetch) \
    X(git_remote_push) \
    X(git_fetch_options_init) \
    X(git_push_options_init) \
    X(git_strarray_dispose) \
    X(git_credential_ssh_key_new) \
    X(git_credential_ssh_key_from_agent) \
    X(git_credential_username_new)

typedef struct notes_git_api {
#define NOTES_GIT_FIELD(name) __typeof__(&name) _Nonnull name;
    NOTES_GIT_FUNCTIONS(NOTES_GIT_FIELD)
#undef NOTES_GIT_FIELD
} notes_git_api;

/// Opens libgit2 once per process and returns its function table, or NULL with a message in
/// `error`. `path` may name the library file; NULL tries the distribution's sonames.
const notes_git_api *_Nullable notes_git_open(const char *_Nullable path, char *_Nonnull error, size_t error_size);

/// Turns on fsync of object, pack and ref writes (`git_libgit2_opts` is variadic, which Swift
/// cannot call). Returns libgit2's result.
int notes_git_enable_fsync(const notes_git_api *_Nonnull api);

#endif
