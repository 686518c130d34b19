// SPDX-License-Identifier: GPL-2.0
/*
 * The differential test's Berkeley DB workload (tests/diff): an
 * environment in memory (no file: two runs see the same) with locking,
 * logging, transactions and a buffer pool, and a btree, a hash and a
 * recno database in it: puts, gets, cursors, deletes, statistics, a
 * checkpoint, then everything closed (the environment's destroy paths).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <db.h>

#define CHECK(call) do {						\
	int r_ = (call);						\
	if (r_) {							\
		fprintf(stderr, "db_work: %s: %s\n", #call, db_strerror(r_)); \
		exit(1);						\
	}								\
} while (0)

static DB *open_db(DB_ENV *env, DB_TXN *txn, DBTYPE type, u_int32_t flags)
{
	DB *db;

	CHECK(db_create(&db, env, 0));
	if (flags)
		CHECK(db->set_flags(db, flags));
	if (type == DB_RECNO)
		CHECK(db->set_re_len(db, 32));
	CHECK(db->open(db, txn, NULL, NULL, type, DB_CREATE, 0));
	return db;
}

static void put(DB *db, DB_TXN *txn, const void *k, u_int32_t klen, const char *v)
{
	DBT key = { .data = (void *)k, .size = klen };
	DBT data = { .data = (void *)v, .size = (u_int32_t)strlen(v) + 1 };

	CHECK(db->put(db, txn, &key, &data, 0));
}

static long walk(DB *db, DB_TXN *txn)
{
	DBT key = { 0 }, data = { 0 };
	DBC *c;
	long n = 0, bytes = 0;
	int r;

	CHECK(db->cursor(db, txn, &c, 0));
	while (!(r = c->get(c, &key, &data, DB_NEXT))) {
		n++;
		bytes += key.size + data.size;
	}
	if (r != DB_NOTFOUND)
		CHECK(r);
	CHECK(c->close(c));
	return n * 1000 + bytes % 1000;
}

int main(void)
{
	DB_ENV *env;
	DB_TXN *txn;
	DB *bt, *hash, *rec;
	DB_BTREE_STAT *bst;
	DB_HASH_STAT *hst;
	char k[32], v[64];
	db_recno_t recno;
	DBT key, data;
	int i;

	CHECK(db_env_create(&env, 0));
	CHECK(env->set_cachesize(env, 0, 2 * 1024 * 1024, 1));
	CHECK(env->log_set_config(env, DB_LOG_IN_MEMORY, 1));
	CHECK(env->set_lg_bsize(env, 1024 * 1024));
	CHECK(env->open(env, NULL, DB_CREATE | DB_PRIVATE | DB_INIT_MPOOL | DB_INIT_LOCK |
			DB_INIT_LOG | DB_INIT_TXN, 0));
	CHECK(env->txn_begin(env, NULL, &txn, 0));
	bt = open_db(env, txn, DB_BTREE, DB_DUP);
	hash = open_db(env, txn, DB_HASH, 0);
	rec = open_db(env, txn, DB_RECNO, 0);
	CHECK(txn->commit(txn, 0));

	for (int round = 0; round < 3; round++) {
		CHECK(env->txn_begin(env, NULL, &txn, 0));
		for (i = 0; i < 400; i++) {
			snprintf(k, sizeof(k), "key%05d", (i * 37 + round) % 1000);
			snprintf(v, sizeof(v), "value %d of round %d", i, round);
			put(bt, txn, k, (u_int32_t)strlen(k), v);
			put(hash, txn, k, (u_int32_t)strlen(k), v);
			recno = (db_recno_t)(i + 1);
			put(rec, txn, &recno, sizeof(recno), v);
		}
		if (round == 1)
			CHECK(txn->abort(txn));
		else
			CHECK(txn->commit(txn, 0));
	}
	for (i = 0; i < 100; i++) {
		snprintf(k, sizeof(k), "key%05d", i * 7);
		memset(&key, 0, sizeof(key));
		memset(&data, 0, sizeof(data));
		key.data = k;
		key.size = (u_int32_t)strlen(k);
		bt->get(bt, NULL, &key, &data, 0);
		hash->get(hash, NULL, &key, &data, 0);
		if (i % 3 == 0)
			hash->del(hash, NULL, &key, 0);
	}
	printf("btree %ld hash %ld recno %ld\n", walk(bt, NULL), walk(hash, NULL), walk(rec, NULL));
	CHECK(bt->stat(bt, NULL, &bst, 0));
	CHECK(hash->stat(hash, NULL, &hst, 0));
	printf("btree keys %lu, hash keys %lu\n", (unsigned long)bst->bt_nkeys,
	       (unsigned long)hst->hash_nkeys);
	free(bst);
	free(hst);
	CHECK(env->txn_checkpoint(env, 0, 0, DB_FORCE));
	CHECK(rec->close(rec, 0));
	CHECK(hash->close(hash, 0));
	CHECK(bt->close(bt, 0));
	CHECK(env->close(env, 0));
	return 0;
}
