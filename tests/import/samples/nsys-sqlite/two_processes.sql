-- An Nsight Systems SQLite export (nsys export --type sqlite), cut down to
-- the tables and columns gpusim import reads; column names and types from
-- NVIDIA's "SQLite Export Schema Reference". Serialized ids: the process
-- id in bits 24-47 of globalTid/globalPid, the thread id in bits 0-23.
-- Process 4242 (python3) copies and launches on streams 7 and 13 from two
-- threads; process 5000 (unnamed) launches one kernel with the same
-- correlation id as one of 4242's (ids are per process).
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE ThreadNames (nameId INT NOT NULL, priority INT NOT NULL, globalTid INT NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INT NOT NULL, end INT NOT NULL, globalTid INT NOT NULL, correlationId INT NOT NULL, nameId INT NOT NULL, returnValue INT NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL, contextId INT NOT NULL, streamId INT NOT NULL, correlationId INT NOT NULL, globalPid INT NOT NULL, demangledName INT NOT NULL, shortName INT NOT NULL, gridX INT NOT NULL, blockX INT NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL, contextId INT NOT NULL, streamId INT NOT NULL, correlationId INT NOT NULL, globalPid INT NOT NULL, bytes INT NOT NULL, copyKind INT NOT NULL);
INSERT INTO StringIds VALUES (1, 'python3'), (2, 'cudaLaunchKernel'), (3, 'cudaMemcpyAsync'), (4, 'volta_sgemm_128x64_nn'), (5, 'pt_autograd_0');
INSERT INTO ThreadNames VALUES (1, 0, (1 << 56) | (4242 << 24) | 4242), (5, 0, (1 << 56) | (4242 << 24) | 4250);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
  (1000000, 1004000, (1 << 56) | (4242 << 24) | 4242, 10, 3, 0),
  (1010000, 1013000, (1 << 56) | (4242 << 24) | 4242, 11, 2, 0),
  (1012000, 1014000, (1 << 56) | (4242 << 24) | 4250, 12, 2, 0),
  (1020000, 1023000, (1 << 56) | (5000 << 24) | 5000, 10, 2, 0);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES
  (1002000, 1012000, 0, 1, 7, 10, (1 << 56) | (4242 << 24), 4194304, 1);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
  (1015000, 1165000, 0, 1, 7, 11, (1 << 56) | (4242 << 24), 4, 4, 64, 256),
  (1018000, 1030000, 0, 1, 13, 12, (1 << 56) | (4242 << 24), 4, 4, 64, 256),
  (1030000, 1230000, 0, 2, 7, 10, (1 << 56) | (5000 << 24), 4, 4, 128, 256);
