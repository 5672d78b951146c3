// The workbench on a laptop screen (issue 14 §1). On an offscreen screen of
// 1366x768 (and in a 1920x1080 window) every area lays out inside the window:
// no minimum larger than the screen, every control of the Setup panel, the
// Problems panel (on the Plan tab, where they show), the memory verdict and
// each area's main controls visible or reachable by scrolling; a saved geometry larger than the screen, and the
// first start's default size, are clamped to the screen.
#include "gui_test_support.hpp"

#include "views/chart_view_base.hpp"
#include "views/problems_panel.hpp"
#include "window/language_manager.hpp"
#include "window/run_areas.hpp"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QMainWindow>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace sb::gui;

namespace {

// The controls a user works with, shown in `root` (hidden ones, such as the
// Slurm fields of an SSH launch, do not count).
QList<QWidget*> controls(QWidget* root, QWidget* window)
{
    QList<QWidget*> out;
    for (QWidget* w : root->findChildren<QWidget*>()) {
        const bool control = qobject_cast<QAbstractButton*>(w) || qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QLineEdit*>(w) ||
                             qobject_cast<QComboBox*>(w) || qobject_cast<QAbstractItemView*>(w) || qobject_cast<ChartViewBase*>(w);
        // Line edits inside spin boxes and combo boxes are their parent's.
        if (!control || !w->isVisibleTo(window) || qobject_cast<QAbstractSpinBox*>(w->parentWidget()) ||
            qobject_cast<QComboBox*>(w->parentWidget()) || w->inherits("QTabBar") || w->inherits("QToolButton") || w->inherits("QHeaderView") ||
            w->objectName().startsWith(QLatin1String("qt_")))
            continue;
        out << w;
    }
    return out;
}

// Scrolls every scroll area above `w` to it; then `w` is on screen when its
// visible region is the whole widget (an item view or a chart: a useful part).
QString unreachable(QWidget* w, QWidget* window)
{
    for (QWidget* p = w->parentWidget(); p && p != window; p = p->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(p); area && area->widget()) {
            // The whole widget (ensureWidgetVisible() is content with a spin box's text cursor).
            const QPoint at = w->mapTo(area->widget(), QPoint(0, 0));
            area->ensureVisible(at.x() + w->width() / 2, at.y() + w->height() / 2, w->width() / 2 + 1, w->height() / 2 + 1);
        }
    // The widget's rectangle clipped by every parent's, the window's included.
    QRect seen(w->mapTo(window, QPoint(0, 0)), w->size());
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget()) {
        seen &= QRect(p == window ? QPoint(0, 0) : p->mapTo(window, QPoint(0, 0)), p->size());
        if (p == window) break;
    }
    seen.translate(-w->mapTo(window, QPoint(0, 0)));
    const bool big = qobject_cast<QAbstractItemView*>(w) || qobject_cast<ChartViewBase*>(w);
    const bool ok = big ? seen.width() >= std::min(w->width(), 120) && seen.height() >= std::min(w->height(), 60) : seen == w->rect();
    if (ok) return {};
    return QStringLiteral("%1 \"%2\" (%3x%4, seen %5x%6)")
        .arg(QLatin1String(w->metaObject()->className()), w->objectName())
        .arg(w->width())
        .arg(w->height())
        .arg(seen.width())
        .arg(seen.height());
}

} // namespace

class TestScreen : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateSettings(); }

    void theScreenIsALaptops()
    {
        QCOMPARE(QGuiApplication::primaryScreen()->geometry(), QRect(0, 0, 1366, 768));
    }

    void everyAreaFits_data()
    {
        QTest::addColumn<QSize>("size");
        // A laptop's screen less a title bar, and a 1080p screen's.
        QTest::newRow("1366x768") << QSize(1366, 738);
        QTest::newRow("1920x1080") << QSize(1920, 1050);
    }
    void everyAreaFits()
    {
        QFETCH(QSize, size);
        test::Workbench w;
        const QSize minimum = w->minimumSizeHint();
        QVERIFY2(minimum.width() <= 1366 && minimum.height() <= 738,
                 qPrintable(QStringLiteral("the window needs at least %1x%2").arg(minimum.width()).arg(minimum.height())));
        w->resize(size);
        QCoreApplication::processEvents();
        QCOMPARE(w->size(), size);
        auto* tabs = w->findChild<QTabWidget*>(QStringLiteral("areaTabs"));
        QVERIFY(tabs);
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QCoreApplication::processEvents();
            QCOMPARE(w->size(), size); // no area forces the window larger
            QStringList lost;
            QList<QWidget*> all = controls(tabs->currentWidget(), w.window.get());
            all += controls(w->setupDock(), w.window.get());
            all += controls(w->problemsDock(), w.window.get());
            QVERIFY(all.size() > 5);
            for (QWidget* c : all)
                if (QString why = unreachable(c, w.window.get()); !why.isEmpty()) lost << why;
            if (i == 0) {
                auto* verdict = w->findChild<QWidget*>(QStringLiteral("memoryVerdict"));
                QVERIFY(verdict);
                if (QString why = unreachable(verdict, w.window.get()); !why.isEmpty()) lost << why;
            }
            QVERIFY2(lost.isEmpty(), qPrintable(tabs->tabText(i) + QStringLiteral(": out of reach: ") + lost.join(QStringLiteral("; "))));
            // The Problems dock belongs to the Plan tab (tst_gui_layout.cpp): the other tabs get the window.
            if (i == 0) QVERIFY(w->problemsPanel()->visibleRegion().boundingRect().height() >= 60);
            else QVERIFY(!w->problemsDock()->isVisible());
        }
    }

    void theWindowStartsOnTheScreen()
    {
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        {
            LanguageManager languages;
            MainWindow first(&languages); // no saved geometry: the default size is clamped
            QVERIFY2(available.contains(first.geometry()),
                     qPrintable(QStringLiteral("%1x%2").arg(first.geometry().width()).arg(first.geometry().height())));
        }
        // A geometry saved on a larger monitor.
        QMainWindow big;
        big.setGeometry(200, 150, 2560, 1440);
        QSettings().setValue(QStringLiteral("window/geometry"), big.saveGeometry());
        LanguageManager languages;
        MainWindow again(&languages);
        QVERIFY2(available.contains(again.geometry()),
                 qPrintable(QStringLiteral("%1,%2 %3x%4").arg(again.geometry().x()).arg(again.geometry().y())
                                .arg(again.geometry().width()).arg(again.geometry().height())));
    }
};

int main(int argc, char** argv)
{
    return sb::gui::test::runOnLaptopScreen(argc, argv, [](int c, char** v) {
        TestScreen test;
        return QTest::qExec(&test, c, v);
    });
}

#include "tst_gui_screen.moc"
