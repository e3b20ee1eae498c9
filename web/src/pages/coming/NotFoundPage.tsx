import { Link } from "react-router";
import { PageHeader } from "../../components/PageHeader";
import { paths } from "../../lib/paths";

export default function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is no page at this address. Go to the <Link to={paths.overview()}>Overview</Link>.
      </p>
    </>
  );
}
