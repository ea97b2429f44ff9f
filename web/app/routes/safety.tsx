import { Link } from "react-router-dom";
import { SAFETY_NOTICE } from "@contract/safety";
import { PageFrame } from "../../components/layout/page-frame";
import { SUPPORT_EMAIL } from "../../config/env";
import { paths } from "../../config/paths";

/** The safety page (docs/decisions/015): how to spot a rental scam, why to stay on CampusNest, how to report. */
export default function SafetyRoute() {
  return (
    <PageFrame title="Stay safe" lead="Students are the people rental scammers target most. Here is how to spot a scam and what to do about it." width="narrow">
      <article className="prose safety-page">
        <p className="safety-rule">
          <strong>{SAFETY_NOTICE}.</strong>
        </p>

        <h2 id="spot-a-scam">How to spot a scam</h2>
        <p>Almost every rental scam asks for one of these. If a message does, stop and take a closer look.</p>
        <ul>
          <li>
            <strong>Payment off the platform.</strong> A wire transfer, Western Union, MoneyGram, Zelle, Cash App,
            Venmo, PayPal friends and family, gift cards or crypto. Money sent this way is almost impossible to get
            back.
          </li>
          <li>
            <strong>Money before a viewing.</strong> &quot;Send a deposit to hold it&quot;, &quot;pay before you see
            it&quot;, &quot;whoever pays first gets the room&quot;. A real lister lets you see the place (in person,
            or on a live video call from inside it) before any money moves.
          </li>
          <li>
            <strong>The owner is away and cannot show the place.</strong> Out of the country, on a mission, working
            offshore, &quot;I will mail you the keys&quot;. If nobody can open the door for you, do not pay.
          </li>
          <li>
            <strong>Moving the talk elsewhere.</strong> &quot;Text me at...&quot;, a phone number or an email
            address, WhatsApp or Telegram right away. Scammers leave CampusNest so that we cannot see or stop them.
          </li>
          <li>
            <strong>Asking for your identity.</strong> A photo of your ID or passport, a selfie holding it, your Social
            Security number, or your bank login &quot;for a background check&quot; before any lease. That is how
            identity theft starts.
          </li>
          <li>
            <strong>A link to pay or book.</strong> A page that looks like a booking, escrow or payment site, a
            shortened link, or an address that imitates a well-known one.
          </li>
          <li>
            <strong>Too good to be true.</strong> Rent far below similar places near campus, pressure to decide
            today, photos that look like a hotel or that you have seen in another listing.
          </li>
        </ul>
        <p>
          When a message in your conversations looks like one of these, CampusNest shows a safety notice under it.
          The message itself is delivered: the notice is a reminder, not an accusation. If you know the message is
          honest (say, splitting utilities after you moved in), choose <strong>This is fine</strong> under the notice:
          we stop showing that kind of warning in that conversation, and our team sees your answer.
        </p>

        <h2 id="identity-theft">Protect your identity</h2>
        <p>Identity theft often follows rental scams: a stolen ID or bank login costs more than a lost deposit.</p>
        <ul>
          <li>
            <strong>CampusNest never asks for your ID in a message.</strong> We check listers&apos; documents ourselves,
            through your account, never by chat, email or text.
          </li>
          <li>
            <strong>Never send your ID, Social Security number or bank login</strong> to someone you have not signed a
            lease with. A real landlord runs a background or credit check through a proper application, after a
            viewing, and never needs your bank password.
          </li>
          <li>
            <strong>Already sent something?</strong> Tell your bank, change your passwords, and see{" "}
            <a href="https://www.identitytheft.gov">identitytheft.gov</a> for the next steps.
          </li>
        </ul>

        <h2 id="links">Links to pay, book or sign in</h2>
        <ul>
          <li>
            <strong>CampusNest never sends you a link to pay.</strong> We never ask for a payment, a deposit, your card
            or your password on a page someone sends you in a message.
          </li>
          <li>
            <strong>Check where a link goes.</strong> Fake escrow, booking and payment pages copy real ones; shortened
            links hide where they lead. Type the address of a site you know instead of following a link.
          </li>
          <li>
            <strong>Do not enter your details</strong> (card, bank login, ID, verification codes) on a page you reached
            from a message.
          </li>
        </ul>

        <h2 id="stay-on-campusnest">Keep talking and paying through CampusNest</h2>
        <ul>
          <li>
            <strong>Your conversation is your record.</strong> Messages on CampusNest stay in your inbox. If something
            goes wrong, our team can read what was agreed and act on it.
          </li>
          <li>
            <strong>Listers here are verified.</strong> Every lister shows an identity document to our team before
            posting. Someone who pushes you off the site throws that protection away.
          </li>
          <li>
            <strong>Pay only against a signed lease.</strong> Sign a written sublease that the landlord has approved,
            then pay the way it says (usually through the landlord or the property&apos;s portal), never by gift card,
            wire or crypto.
          </li>
          <li>
            <strong>Never share codes or documents.</strong> We never ask for your password or a verification code in
            a message.
          </li>
        </ul>

        <h2 id="report">How to report</h2>
        <ul>
          <li>
            <strong>Report listing:</strong> on the listing&apos;s page, tell us it is a scam, already taken, wrong,
            inappropriate or discriminatory.
          </li>
          <li>
            <strong>Report user:</strong> in a conversation, report the person you are talking to. Our team reviews
            every report and can hide listings and suspend accounts.
          </li>
          <li>
            <strong>Block:</strong> in a conversation, block someone to stop hearing from them. You can unblock them
            from your profile.
          </li>
          <li>
            <strong>Already paid?</strong> Contact your bank or payment app at once, report the listing or user here,
            and write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>. You can also report fraud to the
            police and to the FTC at <a href="https://reportfraud.ftc.gov">reportfraud.ftc.gov</a>.
          </li>
        </ul>
        <p>
          More answers on the <Link to={paths.support}>Support</Link> page.
        </p>
      </article>
    </PageFrame>
  );
}
