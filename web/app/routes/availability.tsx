import { AvailabilityPage } from "../../features/freshness/components/availability-page";

export default function AvailabilityRoute() {
  return <AvailabilityPage />;
}
