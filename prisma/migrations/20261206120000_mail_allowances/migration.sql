-- Per-address allowances of mails (password resets, invitations, scheduled reports): how many mails of a kind
-- one address got in a window is read by address, kind and time (src/domain/mail/allowance.ts).
CREATE INDEX "mails_to_address_kind_created_at_idx" ON "mails" ("to_address", "kind", "created_at");
