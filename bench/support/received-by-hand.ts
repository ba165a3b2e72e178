const RECEIVED_COLUMNS = `
  SELECT m.id, m."fromAddress" AS "from", m."toLine" AS "to", m."ccLine" AS cc, '' AS bcc, m.subject,
         m."sentAt" AS datetime, m."replyOfId" AS "replyOf", r."readAt" IS NOT NULL AS "isRead",
         (SELECT count(*) FROM "MessageAttachment" a WHERE a."messageId" = m.id)::int AS "attachmentCount"
    FROM "MessageRecipient" r JOIN "Message" m ON m.id = r."messageId"
   WHERE r."userId" = $1 AND r."deletedAt" IS NULL`;

/**
 * A user's first page of received messages (50), written by hand: the statement bench:messages
 * times in its own process and serves from the baseline server, next to GET /api/message/received.
 */
export const RECEIVED_BY_HAND = `${RECEIVED_COLUMNS}
   ORDER BY r."createdAt" DESC, r.id DESC
   LIMIT 50`;

/**
 * The page after a position by hand ($2 the last row's "createdAt" as stored, UTC without a zone;
 * $3 its recipient row id): the deep page of bench:messages.
 */
export const RECEIVED_BEFORE_BY_HAND = `${RECEIVED_COLUMNS}
     AND (r."createdAt", r.id) < ($2::timestamp, $3::uuid)
   ORDER BY r."createdAt" DESC, r.id DESC
   LIMIT 50`;
