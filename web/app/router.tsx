import { Component, lazy, Suspense, type ComponentType, type ErrorInfo, type ReactNode } from "react";
import { matchPath, Route, Routes, useLocation } from "react-router-dom";
import { paths, routePatterns } from "../config/paths";
import { AppLayout } from "./app-layout";
import { PageLoadingInline } from "../components/ui/spinner";
import { RouteError } from "./route-error";
import HomeRoute from "./routes/home";

/**
 * The route table, as a declarative <Routes> (docs/decisions/023): the app loads no data through the router, so
 * it does without the data router (createBrowserRouter), about 15 KB gzip less on every first load.
 * Each non-home page is its own lazy chunk (the admin panel never loads on public pages); while a
 * chunk loads, the nearest Suspense shows "Loading" (the layout's, around its outlet), and while a
 * server-rendered page hydrates, React keeps the server's markup there until its chunk has arrived.
 */
type LazyPage = ComponentType & { preload: () => Promise<unknown> };

/**
 * A page's lazy chunk (React.lazy while it loads). A page whose chunk has already arrived renders at
 * once: main.tsx awaits the URL's page before hydrating, so hydration never suspends on it (a
 * suspended boundary that receives an update before hydrating is rendered afresh, replacing the
 * server's markup).
 */
function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let Loaded: ComponentType | null = null;
  let loading: Promise<{ default: ComponentType }> | null = null;
  // A failed load is tried again next time (a lost connection, a deploy in between).
  const preload = () =>
    (loading ??= load().then(
      (module) => ((Loaded = module.default), module),
      (err: unknown) => {
        loading = null;
        throw err;
      },
    ));
  const Lazy = lazy(preload);
  function Page() {
    const Ready = Loaded;
    return Ready ? <Ready /> : <Lazy />;
  }
  return Object.assign(Page, { preload });
}

const AdminPage = lazyPage(() => import("./routes/admin"));
const NotFoundPage = lazyPage(() => import("./routes/not-found"));
/** The deal page and the landlord's consent page: one lazy page for both paths (each entry costs `/` bytes). */
const DealPages = lazyPage(() => import("./routes/deals"));

/** The pages inside the public layout (navbar, footer), by path. */
export const pages: { path: string; page: LazyPage }[] = [
  { path: routePatterns.listing, page: lazyPage(() => import("./routes/listing")) },
  { path: paths.signup, page: lazyPage(() => import("./routes/signup")) },
  { path: paths.profile, page: lazyPage(() => import("./routes/profile")) },
  { path: paths.favorites, page: lazyPage(() => import("./routes/favorites")) },
  { path: routePatterns.messages, page: lazyPage(() => import("./routes/messages")) },
  { path: paths.create, page: lazyPage(() => import("./routes/create")) },
  { path: routePatterns.edit, page: lazyPage(() => import("./routes/edit")) },
  { path: routePatterns.promote, page: lazyPage(() => import("./routes/promote")) },
  { path: paths.billing, page: lazyPage(() => import("./routes/billing")) },
  { path: paths.verification, page: lazyPage(() => import("./routes/verification")) },
  { path: paths.support, page: lazyPage(() => import("./routes/support")) },
  { path: paths.availability, page: lazyPage(() => import("./routes/availability")) },
  { path: paths.unsubscribe, page: lazyPage(() => import("./routes/unsubscribe")) },
  { path: paths.terms, page: lazyPage(() => import("./routes/terms")) },
  { path: paths.safety, page: lazyPage(() => import("./routes/safety")) },
  // DEAL_ROUTES (lib/deals-api.ts), written out: importing it would put the deal code on `/`'s first load.
  { path: "/deals/:id", page: DealPages },
  { path: "/landlord-consent/:token", page: DealPages },
];

/** Starts loading the chunk of the page at `pathname` (main.tsx, before hydrating a server-rendered page). */
export function preloadPage(pathname: string): Promise<unknown> {
  if (matchPath(paths.home, pathname)) return Promise.resolve();
  if (matchPath(paths.admin, pathname)) return AdminPage.preload();
  return (pages.find((p) => matchPath(p.path, pathname))?.page ?? NotFoundPage).preload();
}

/** A page that fails to load or render (a chunk lost after a deploy, a bug) shows RouteError; a new address tries again. */
class RouteErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { error: unknown; key: string }> {
  override state = { error: null as unknown, key: this.props.resetKey };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  static getDerivedStateFromProps(props: { resetKey: string }, state: { error: unknown; key: string }) {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }
  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error("route_render_failed", error, info.componentStack);
  }
  override render() {
    return this.state.error ? <RouteError /> : this.props.children;
  }
}

export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary resetKey={pathname}>
      <Routes>
        {/* The admin panel has its own header: no public navbar, footer or feedback button. */}
        <Route
          path={paths.admin}
          element={
            <Suspense fallback={<PageLoadingInline label="Loading" />}>
              <AdminPage />
            </Suspense>
          }
        />
        <Route element={<AppLayout />}>
          <Route index element={<HomeRoute />} />
          {pages.map(({ path, page: Page }) => (
            <Route key={path} path={path} element={<Page />} />
          ))}
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </RouteErrorBoundary>
  );
}
