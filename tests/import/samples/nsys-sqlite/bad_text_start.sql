CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, correlationId, globalPid);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES ('soon', 2000, 0, 1, 7, 1, 16777216);
