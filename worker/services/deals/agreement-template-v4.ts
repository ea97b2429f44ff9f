/**
 * The sublease agreement, version 4 (docs/decisions/041): version 3 whose clause on the Original Lease says
 * where the Subtenant reads it: the Tenant attaches it to the deal on CampusNest, privately (POST
 * deals/{id}/lease). The clause reads the same whether or not it is attached yet, so attaching it never
 * makes a new agreement version. Agreements filled from earlier versions keep their text and hash.
 */
import type { AgreementFacts } from "./agreement-template-v1";
import { joinAgreement } from "./agreement-template-v2";
import { sectionsV3 } from "./agreement-template-v3";

export const TEMPLATE_ID = "agreement-template-v4";

const ORIGINAL_LEASE = "The Original Lease";

export const renderAgreementV4 = (f: AgreementFacts): string =>
  joinAgreement(
    TEMPLATE_ID,
    sectionsV3(f).map(([title, body]): [string, string] =>
      title === ORIGINAL_LEASE
        ? [
            title,
            'The Tenant\'s lease with the Landlord (the "Original Lease") is part of this agreement. The Tenant attaches the Original Lease (or the pages of it that concern the Premises and subletting) to this sublease on CampusNest, where only the two parties and CampusNest staff can read it, and the Subtenant can read it there before signing. The Subtenant will obey every term of it that applies to an occupant and will do nothing that would put the Tenant in breach of it. Where this agreement and the Original Lease disagree, the Original Lease wins.',
          ]
        : [title, body],
    ),
  );
