/** Inputs of the credits reads, shared by every door. */
import { page } from "../shared/inputs.ts";

/** GET /credits/ledger: a page of the ledger. */
export const ledgerQuery = page(50);
